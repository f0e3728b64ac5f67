#!/usr/bin/env python3
"""Fuzzes the <<<>>> launch rewriter of the .asc flow (sdk/asc/ascend-sim-asc --rewrite FILE).

    fuzz_asc_rewriter.py [--runs N | --time S] [--seed S] [--save DIR] [--subprocess-every K]
    fuzz_asc_rewriter.py --replay DIR_OR_FILE...          (CI: ctest fuzz.asc_rewriter)

Inputs are bytes (a source may hold any bytes): the seeds (examples/asc/*/*.asc, the edge cases
below, the files of tests/fuzz/corpus/asc_rewriter), well-formed launches made by a generator
whose exact rewriting is known, and mutations of all of these (token insertions from a
dictionary of the rewriter's delimiters, deletions, duplications, splices, truncation, invalid
UTF-8, unicode, huge numbers). Each runs through the rewriter's own main() in this process, with
a strict UTF-8 standard output as a UTF-8 terminal has; a sample of them (and every replayed
input) also runs as its own process. The oracle:
- nothing but exit status 0 or 2 ever leaves the rewriter: an exception or traceback is a finding;
- exit 2 prints one line `FILE:LINE: error: MESSAGE`, LINE within the file, MESSAGE not empty;
- exit 0 prints the source with the same lines, byte for byte where no launch was rewritten
  (a source without `<<<` outside strings and comments comes back unchanged), and rewriting the
  output again changes nothing;
- the same input gives the same result twice;
- a generated launch comes back as exactly the launch_kernel call it must become;
- an input takes less than 2 s (10 s for the big edge cases).
Findings are written to --save DIR (default: build-fuzz/findings/asc_rewriter) and named on
stdout; the exit status is 1 if there was any.
"""
import argparse
import hashlib
import importlib.machinery
import importlib.util
import io
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LINE = re.compile(rb"^(.*):(\d+): error: (.+)\n$", re.S)


def load(path):
    loader = importlib.machinery.SourceFileLoader("ascend_sim_asc", path)
    spec = importlib.util.spec_from_loader("ascend_sim_asc", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


# --- seeds ----------------------------------------------------------------------------------

EDGE = [
    b"",
    b"\n",
    b"<<<",
    b">>>",
    b"<<<>>>",
    b"k<<<>>>()",
    b"k<<<1,0,s>>>()",
    b"k<<<1,0,s>>>",
    b"k<<<1,0,s",
    b"k<<<1,0,s>>>(",
    b"k<<<1,0,s>>>(a, (b)",
    b"k<<<1,0,s>>>(a, b))",
    b"k<<<(1,0,s>>>(a)",
    b"k<<<1,0,s)>>>(a)",
    b"k<<<1,0,{s>>>(a)",
    b"k<<<1,0,[s]>>>(a)",
    b"k<<<1,,s>>>(a)",
    b"k<<< , , >>>(a)",
    b"k<<<1,0,s>>>(a)<<<1,0,s>>>(b)",
    b"k<<<1,0,s>>>(j<<<1,0,s>>>(b))",
    b"k<<<j<<<1,0,s>>>(b),0,s>>>(a)",
    b"::k<<<1,0,s>>>(a);",
    b"a::b::c::k<<<1,0,s>>>(a);",
    b"k<T<U<V>>><<<1,0,s>>>(a);",
    b"k<T<U<V>>>><<<1,0,s>>>(a);",
    b"k<<T>><<<1,0,s>>>(a);",
    b"k<1 > 0><<<1,0,s>>>(a);",
    b"k<(1 > 0)><<<1,0,s>>>(a);",
    b"k<std::pair<int, std::vector<float>>, 3><<<std::min<uint32_t>(4, n), nullptr, st>>>(a, b);",
    b"k<<<a > b ? c : d, 0, s>>>(x);",
    b"k<<<(a >> 2), 0, s>>>(x);",
    b"k<<<a >> 2, 0, s>>>(x);",
    b"k<<<1, 0, s>>>>(x);",
    b"k<<<1, 0, s>>>>>(x);",
    b"k<<<<1, 0, s>>>(x);",
    b"k<<<<<<1, 0, s>>>>>>(x);",
    b"k <<< 1 , 0 , s >>> ( x ) ;",
    b"k\n<<<\n1\n,\n0\n,\ns\n>>>\n(\nx\n)\n;",
    b"k/*c*/<<</*c*/1,/*>>>*/0,s>>>/*(*/(x);",
    b"k<<<1, 0, s>>> // (x)\n(x);",
    b'k<<<1, 0, s>>>(")", \')\', "\\")");',
    b'k<<<1, 0, s>>>(R"d()")d", x);',
    b'k<<<1, 0, s>>>(u8R"(<<<)", LR"x()x", uR"()", UR"()");',
    b'const char* s = "k<<<1,0,s>>>(x)";',
    b'const char* s = "unterminated <<<\nk<<<1,0,s>>>(x);',
    b"char c = '<'; char d = '>'; k<<<1,0,s>>>('(');",
    b"int big = 1'000'000; k<<<1'024, 0, s>>>(big);",
    b"k<<<0x1'0, 0b1'0, s>>>(1'0);",
    b"// k<<<1,0,s>>>(x)\n/* k<<<1,0,s>>>(x) */",
    b"/* unterminated k<<<1,0,s>>>(x)",
    b'auto r = R"x(k<<<1,0,s>>>(q))x";',
    b'auto r = R"x(unterminated raw k<<<1,0,s>>>(q)',
    b'auto r = R"(no paren',
    b'auto r = R"',
    b'auto r = uR"x(k<<<1,0,s>>>(q))x"; k<<<1,0,s>>>(q);',
    b'FOOR"x(k<<<1,0,s>>>(q))x"',
    b"__global__ __vector__ void k(GM_ADDR a) {}\nint main() { k<<<8, 0, s>>>(a); }",
    b"__global__ __cube__ void k(GM_ADDR a) {}\nint main() { k<<<8, 0, s>>>(a); }",
    b"__global__ __mix__(1, 2) void k(GM_ADDR a) {}\nint main() { k<<<8, 0, s>>>(a); }",
    b"__global__ __mix__(1,1) void k(GM_ADDR a) {}\nint main() { k<<<8, 0, s>>>(a); }",
    b"__global__ __mix__(2, 3) void k(GM_ADDR a) {}",
    b"__global__ __mix__(0, 0) void k() {}",
    b"__global__ __mix__(" + b"1" * 5000 + b", 2) void k() {}",
    b"__global__ __mix__(1, 2)",
    b"__global__",
    b"__global__ (",
    b"__global__ __aicore__ void k(",
    b"template <int N> __global__ __cube__ void mm(GM_ADDR a) {}\nint main() { mm<16><<<1,0,s>>>(a); }",
    b"extern \"C\" __global__ __aicore__ void plain(GM_ADDR a, int n);\nns::plain<<<1, 0, nullptr>>>(f(a, b), \"<<<)\");",
    b"k<<<1, 0, s>>>([&] { return a(b); }, {1, 2}, c[3]);",
    b"k<<<1, 0, s>>>([&] { for (;;) {} });",
    b"k<<<1, 0, s; >>>(x);",
    b"k<<<f(1;2), 0, s>>>(x);",
    b"\xff\xfe k<<<1, 0, s>>>(x); // \xc3\x28 \xed\xa0\x80",
    b"/* \xff */ k<<<1, 0, s>>>(\"\xff\xfe\");",
    "k\u00e9<<<1, 0, s>>>(x); // \u4e2d\u6587 \U0001F600".encode(),
    "\u00e9<<<1, 0, s>>>(x);".encode(),
    "\u0663<<<1, 0, s>>>(x);".encode(),
    "__global__ __mix__(\u0661, \u0662) void k() {}".encode(),
    b"k<<<1, 0, s>>>(x)\x00;",
    b"\x00<<<\x00",
    b"k<<<\\\n1, 0, s>>>(x);",
    b"#define L k<<<1, 0, s>>>(x)\nL;",
    b"k<<<" + b"(" * 2000 + b"1" + b")" * 2000 + b", 0, s>>>(x);",
    b"k<<<" + b"1 + " * 5000 + b"1, 0, s>>>(x);",
    b"k<<<" + b"(" * 3000 + b", 0, s>>>(x);",
    b"k" + b"<" * 3000 + b"<<<1, 0, s>>>(x);",
    b"k" + b">" * 3000 + b"<<<1, 0, s>>>(x);",
    b"\r\nk<<<1, 0, s>>>(x);\r\n",
    b"k<<<1, 0, s>>>(x);\r",
]

# Big inputs, for time: each must finish within BIG_LIMIT_S.
BIG = [
    b"<<<" * 20000,
    b"k<<<1, 0, s>>>(x);\n" * 5000,
    b"__global__ " * 10000,
    b"k<" * 10000 + b"<<<1,0,s>>>(x);",
    b"'" * 30000,
    b'"' * 30000,
    b"/*" * 30000,
    b'R"' * 20000,
    b"k<<<1, 0, s>>>(" + b"(" * 20000 + b")" * 20000 + b");",
    b"1'" * 20000,
]

DICT = [b"<<<", b">>>", b"(", b")", b"<", b">", b"[", b"]", b"{", b"}", b",", b";", b'"', b"'",
        b"\\", b"R\"x(", b")x\"", b"R\"(", b")\"", b"/*", b"*/", b"//", b"\n", b" ", b"\t",
        b"__global__", b"__vector__", b"__cube__", b"__aicore__", b"__mix__(1, 2)",
        b"__mix__(1,1)", b"__mix__(2, 3)", b"__mix__(", b"template <typename T>", b"::", b"k",
        b"ns::k", b"k<float>", b"nullptr", b"stream", b"1'000", b"0x10", b"\xff", b"\xc3",
        "\u00e9".encode(), "\U0001F600".encode(), b"\x00", b"\r", b"std::min<uint32_t>(4, n)",
        b"a >> b", b"a > b", b"1" * 64, b"k<<<1, 0, s>>>(x);", b"u8R\"(", b"LR\"d("]


def seeds(asc_examples):
    out = list(EDGE)
    for d in sorted(os.listdir(asc_examples)):
        p = os.path.join(asc_examples, d)
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.endswith(".asc"):
                    with open(os.path.join(p, f), "rb") as fh:
                        out.append(fh.read())
    return out


# --- the generator of well-formed launches ------------------------------------------------

IDENT = "abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def ident(r):
    return r.choice(IDENT[:27]) + "".join(r.choice(IDENT + "0123456789")
                                          for _ in range(r.randrange(0, 8)))


def template_args(r, depth=0):
    parts = []
    for _ in range(r.randrange(1, 4)):
        c = r.randrange(6 if depth < 3 else 3)
        if c == 0:
            parts.append(str(r.randrange(0, 1 << 20)))
        elif c == 1:
            parts.append(r.choice(["float", "half", "int32_t", "bfloat16_t", "T", "uint8_t"]))
        elif c == 2:
            parts.append("(%d > %d)" % (r.randrange(9), r.randrange(9)))  # '>' inside parens
        else:
            parts.append("%s<%s>" % (r.choice(["std::vector", "Tile", "ns::X"]),
                                     template_args(r, depth + 1)))
    return ", ".join(parts)


def expr(r, depth=0):
    """A C++ expression with no top-level ',' or ';' and no '<<<', '>>>' outside brackets."""
    c = r.randrange(10 if depth < 4 else 4)
    if c == 0:
        return str(r.randrange(0, 1 << 31))
    if c == 1:
        return r.choice(["n", "kBlocks", "nullptr", "stream", "x", "ctx.dim"])
    if c == 2:
        return r.choice(['"a<<<b>>>(c"', "'>'", "'('", '"\\")"', 'R"d(>>>)")d"', "1'024"])
    if c == 3:
        return "0x%x" % r.randrange(1 << 32)
    if c == 4:
        return "(%s %s %s)" % (expr(r, depth + 1), r.choice(["+", "*", ">>", ">", "<", "<<", "-"]),
                               expr(r, depth + 1))
    if c == 5:
        return "std::min<uint32_t>(%s, %s)" % (expr(r, depth + 1), expr(r, depth + 1))
    if c == 6:
        return "f(%s)" % ", ".join(expr(r, depth + 1) for _ in range(r.randrange(0, 4)))
    if c == 7:
        return "[&] { return %s; }()" % expr(r, depth + 1)
    if c == 8:
        return "a[%s]" % expr(r, depth + 1)
    return "%s /* >>> ; ( */ + %s" % (expr(r, depth + 1), expr(r, depth + 1))


def space(r):
    return r.choice(["", " ", "  ", "\n", " \n  ", "\t", " /* c */ ", " // c\n"])


def generated(r):
    """(source bytes, the exact output the rewriter must give)."""
    kinds = [("__vector__", "Vector"), ("__cube__", "Cube"), ("__mix__(1, 2)", "Mix12"),
             ("__mix__(1,1)", "Mix11"), ("__aicore__", "Default"), ("", "Default")]
    src, want = [], []
    names = {}
    for _ in range(r.randrange(1, 4)):
        name = ident(r)
        if name in names:
            continue
        q, kind = r.choice(kinds)
        tmpl = "template <typename T> " if r.randrange(3) == 0 else ""
        decl = "%s__global__ %s void %s(GM_ADDR a, int n) {}\n" % (tmpl, q, name)
        if r.randrange(2):
            decl = "%s%s __global__ void %s(GM_ADDR a, int n) {}\n" % (tmpl, q, name)
        names[name] = kind
        src.append(decl)
        want.append(decl)
    src.append("int main() {\n")
    want.append("int main() {\n")
    for _ in range(r.randrange(1, 5)):
        name = r.choice(sorted(names))
        callee = r.choice(["", "ns::", "::", "a::b::"]) + name
        if r.randrange(3) == 0:
            callee += "<%s>" % template_args(r)
        dims = [space(r) + expr(r) + space(r) for _ in range(3)]
        args = ", ".join(expr(r) for _ in range(r.randrange(0, 5)))
        if r.randrange(4) == 0:
            args = space(r) + args + space(r)
        gap = space(r)
        launch = "%s<<<%s>>>%s(%s)" % (callee, ",".join(dims), gap, args)
        call = '::ascend::sdk::launch_kernel("%s", ::ascend::sdk::KernelKind::%s, %s, %s' % (
            name, names[name], callee, ",".join(dims))
        if args.strip():
            call += ", " + args
        call += "\n" * (launch.count("\n") - call.count("\n")) + ")"
        pre = r.choice(["  ", "  if (x) ", "  { ", "  auto s = \"<<<\"; "])
        post = r.choice([";\n", "; // <<<\n", ";  /* k<<<1,0,s>>>(x) */\n"])
        src.append(pre + launch + post)
        want.append(pre + call + post)
    src.append("}\n")
    want.append("}\n")
    return "".join(src).encode(), "".join(want).encode()


# --- mutations ------------------------------------------------------------------------------

def mutate(r, data, pool):
    data = bytearray(data)
    for _ in range(r.randrange(1, 5)):
        op = r.randrange(9)
        n = len(data)
        i = r.randrange(n + 1)
        if op <= 2:
            data[i:i] = r.choice(DICT)
        elif op == 3 and n:
            j = min(n, i + r.randrange(1, 16))
            del data[i:j]
        elif op == 4 and n:
            j = min(n, i + r.randrange(1, 64))
            data[i:i] = data[i:j] * r.randrange(1, 4)
        elif op == 5:
            other = r.choice(pool)
            a = r.randrange(len(other) + 1)
            data[i:] = other[a:a + r.randrange(1, 256)] + data[i:]
        elif op == 6 and n:
            data[r.randrange(n)] = r.randrange(256)
        elif op == 7:
            del data[i:]
        else:
            data[i:i] = bytes([r.randrange(256) for _ in range(r.randrange(1, 4))])
    return bytes(data[:16384])


# --- running the rewriter -------------------------------------------------------------------

class Finding(Exception):
    pass


def run_inprocess(mod, path):
    """(status, stdout bytes, stderr bytes) of `ascend-sim-asc --rewrite path`, in this process,
    with a strict UTF-8 stdout."""
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", errors="strict", newline="")
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="backslashreplace", newline="")
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        try:
            status = mod.main(["--rewrite", path])
        except SystemExit as e:
            status = e.code
        out.flush()
        err.flush()
    except BaseException:
        sys.stdout, sys.stderr = saved
        raise Finding("an exception escaped:\n" + traceback.format_exc())
    finally:
        sys.stdout, sys.stderr = saved
    return status, out_b.getvalue(), err_b.getvalue()


def run_process(asc, path):
    env = dict(os.environ, LC_ALL="en_US.UTF-8", PYTHONIOENCODING="utf-8:strict")
    p = subprocess.run([sys.executable, asc, "--rewrite", path], capture_output=True, env=env,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(mod, asc, data, path, want=None, in_process=True, limit_s=2.0):
    with open(path, "wb") as f:
        f.write(data)
    t0 = time.perf_counter()
    if in_process:
        status, out, err = run_inprocess(mod, path)
    else:
        status, out, err = run_process(asc, path)
    dt = time.perf_counter() - t0
    if dt > limit_s:
        raise Finding("slow: %.2f s (the limit is %.1f s)" % (dt, limit_s))
    if b"Traceback" in err:
        raise Finding("a traceback:\n" + err.decode("utf-8", "replace"))
    status = 0 if status is None else status
    if status == 2:
        m = LINE.match(err)
        lines = data.count(b"\n") + 1
        if not m or m.group(1) != path.encode() or not m.group(3).strip():
            raise Finding("exit 2 without one 'FILE:LINE: error: MESSAGE' line: %r" % err)
        if not 1 <= int(m.group(2)) <= lines:
            raise Finding("exit 2 naming line %s of a file of %d: %r" % (m.group(2), lines, err))
        if out:
            raise Finding("exit 2 but printed a rewriting too")
        if want is not None:
            raise Finding("a well-formed generated launch was refused: %r" % err)
        return ("error", re.sub(rb"\d+|'[^']*'|\S+<<<", b"#", m.group(3)))
    if status != 0:
        raise Finding("exit status %r: %r" % (status, err[-2000:]))
    if err:
        raise Finding("exit 0 with something on stderr: %r" % err[-2000:])
    if out.count(b"\n") != data.count(b"\n"):
        raise Finding("the rewriting has %d lines, the source %d"
                      % (out.count(b"\n"), data.count(b"\n")))
    if want is not None and out != want:
        raise Finding("a generated launch was rewritten as\n%s\nexpected\n%s"
                      % (out.decode("utf-8", "replace"), want.decode("utf-8", "replace")))
    text = data.decode("utf-8", "surrogateescape")
    if "<<<" not in mod.code_mask(text) and out != data:
        raise Finding("a source without a launch came back changed")
    if in_process:
        # Rewriting the rewriting changes nothing (no launch is left), and the same input gives
        # the same output twice.
        again = out.decode("utf-8", "surrogateescape")
        try:
            same = "<<<" in mod.code_mask(again) or mod.rewrite(again) == again
        except Exception:
            raise Finding("rewriting the output again failed:\n" + traceback.format_exc())
        if not same:
            raise Finding("rewriting the output again changed it")
        if run_inprocess(mod, path) != (0, out, b""):
            raise Finding("the same input gave another result the second time")
    return ("ok", out.count(b"launch_kernel("))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--asc", default=os.path.join(ROOT, "sdk", "asc", "ascend-sim-asc"))
    ap.add_argument("--runs", type=int, default=100000)
    ap.add_argument("--time", type=float, help="stop after this many seconds instead")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", default=os.path.join(ROOT, "build-fuzz", "findings", "asc_rewriter"))
    ap.add_argument("--corpus-out", help="write one input per distinct outcome here")
    ap.add_argument("--subprocess-every", type=int, default=1000)
    ap.add_argument("--replay", nargs="+", metavar="PATH")
    a = ap.parse_args(argv)
    mod = load(a.asc)
    work = tempfile.mkdtemp(prefix="asc-fuzz-")
    path = os.path.join(work, "in.asc")
    findings = 0

    def report(data, what):
        nonlocal findings
        findings += 1
        os.makedirs(a.save, exist_ok=True)
        name = os.path.join(a.save, "finding-" + hashlib.sha1(data).hexdigest()[:12])
        with open(name, "wb") as f:
            f.write(data)
        print("FINDING (%s, %d bytes): %s" % (name, len(data), what.strip()[:3000]))

    start = time.time()
    if a.replay:
        files = []
        for p in a.replay:
            if os.path.isdir(p):
                files += sorted(os.path.join(p, f) for f in os.listdir(p))
            else:
                files.append(p)
        for fn in files:
            with open(fn, "rb") as f:
                data = f.read()
            for in_process in (True, False):
                try:
                    check(mod, a.asc, data, path, in_process=in_process, limit_s=10.0)
                except Finding as e:
                    report(data, "%s: %s" % (fn, e))
                    break
        # The built-in edge cases and big inputs too (in process: the big ones are not kept as
        # files).
        for i, data in enumerate(EDGE + BIG):
            try:
                check(mod, a.asc, data, path, limit_s=10.0)
            except Finding as e:
                report(data, "built-in input %d: %s" % (i, e))
        print("asc_rewriter replay: %d input(s), each in process and as a process, and %d built-in"
              " ones: %d finding(s) in %.1f s" % (len(files), len(EDGE + BIG), findings,
                                                   time.time() - start))
        return 1 if findings or not files else 0

    r = random.Random(a.seed)
    pool = seeds(os.path.join(ROOT, "examples", "asc"))
    corpus_dir = os.path.join(HERE, "corpus", "asc_rewriter")
    if os.path.isdir(corpus_dir):
        for f in sorted(os.listdir(corpus_dir)):
            with open(os.path.join(corpus_dir, f), "rb") as fh:
                pool.append(fh.read())
    outcomes = {}
    runs = 0
    for data in BIG:
        try:
            check(mod, a.asc, data, path, limit_s=10.0)
        except Finding as e:
            report(data, str(e))
        runs += 1
    while (time.time() - start < a.time) if a.time else runs < a.runs:
        want = None
        c = r.randrange(10)
        if runs < len(pool):
            data = pool[runs]
        elif c < 3:
            data, want = generated(r)
        elif c < 4:
            data = mutate(r, generated(r)[0], pool)
        else:
            data = mutate(r, r.choice(pool), pool)
        runs += 1
        try:
            key = check(mod, a.asc, data, path, want=want)
            if a.subprocess_every and runs % a.subprocess_every == 0:
                check(mod, a.asc, data, path, want=want, in_process=False, limit_s=10.0)
        except Finding as e:
            report(data, str(e))
            continue
        if key not in outcomes:
            outcomes[key] = data
            if want is None:
                pool.append(data)  # a new outcome: mutate it further
        if runs % 10000 == 0:
            print("  %d inputs, %d outcomes, %d finding(s), %.0f s"
                  % (runs, len(outcomes), findings, time.time() - start), flush=True)
    if a.corpus_out:
        os.makedirs(a.corpus_out, exist_ok=True)
        for key, data in outcomes.items():
            name = hashlib.sha1(data).hexdigest()[:12]
            with open(os.path.join(a.corpus_out, name), "wb") as f:
                f.write(data)
    print("fuzz asc_rewriter: %d inputs in %.0f s, %d distinct outcomes, %d finding(s)"
          % (runs, time.time() - start, len(outcomes), findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
