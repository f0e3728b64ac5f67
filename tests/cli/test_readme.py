#!/usr/bin/env python3
"""Runs every `build/ascend-sim ...` command of the documentation's code blocks and checks its
exit status.

Usage: test_readme.py BINARY PATH... [--tier fast|slow|all] [--list]

Each PATH is a Markdown file (README.md) or a folder whose *.md files, at any depth, are read in
sorted order (docs/). A command's trailing comment may say `(exit N)`: the status it must end
with (0 otherwise), and `(slow)`: it takes a minute or more. The tiers:
  fast  every command not marked slow runs as written; every slow one runs with --dry-run added
        (all the CLI's checks of flags, keys, values, ranks, trace scope, output and dump
        directories, without simulating)
  slow  the slow commands run as written (ctest -C slow -R readme_slow)
  all   both
The commands of one file run one after another, in the file's order, in a scratch directory of
their own where build/ascend-sim is the binary under test, so relative paths (out/,
out/config.ini) work as they do for a reader in the repository's root, and a page's commands
depend only on the commands before them on the same page.
"""
import os
import re
import subprocess
import sys
import tempfile
import time


def commands(path):
    """(line number, command, expected status, slow) of every build/ascend-sim line in a block."""
    out = []
    in_block = False
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_block = not in_block
            i += 1
            continue
        if in_block and line.startswith("build/ascend-sim"):
            start = i + 1
            cmd = line
            while cmd.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd.rstrip()[:-1] + " " + lines[i].strip()
            comment = cmd.split("#", 1)[1] if "#" in cmd else ""
            m = re.search(r"\(exit (\d+)\)", comment)
            out.append((start, cmd, int(m.group(1)) if m else 0, "(slow)" in comment))
        i += 1
    return out


def markdown_files(paths):
    """The files to read: each file as given, each folder's *.md files at any depth, sorted."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, _, names in os.walk(p):
                found += [os.path.join(root, n) for n in names if n.endswith(".md")]
            files += sorted(found)
        elif os.path.isfile(p):
            files.append(p)
        else:
            sys.exit(f"FAIL: no such file or folder: {p}")
    return files


def main():
    args = sys.argv[1:]
    tier = "fast"
    if "--tier" in args:
        i = args.index("--tier")
        tier = args[i + 1]
        del args[i:i + 2]
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    if len(args) < 2 or tier not in ("fast", "slow", "all"):
        sys.exit(__doc__)
    binary = os.path.abspath(args[0])
    files = markdown_files([os.path.abspath(a) for a in args[1:]])
    base = os.path.commonpath([os.path.dirname(f) for f in files]) if files else ""
    found = [(f, commands(f)) for f in files]
    total = sum(len(c) for _, c in found)
    if total == 0:
        sys.exit(f"FAIL: no build/ascend-sim command found in {' '.join(args[1:])}")
    if listing:
        for f, cmds in found:
            for line, cmd, status, slow in cmds:
                print(f"{os.path.relpath(f, base)}:{line}: exit {status}"
                      f"{' slow' if slow else ''}: {cmd}")
        return
    failed = ran = 0
    t_all = time.time()
    for f, cmds in found:
        if not cmds:
            continue
        name = os.path.relpath(f, base)
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "build"))
            os.symlink(binary, os.path.join(tmp, "build", "ascend-sim"))
            for line, cmd, want, slow in cmds:
                if slow and tier == "fast":
                    run = cmd.split("#", 1)[0].rstrip() + " --dry-run"
                    how = "dry run"
                elif not slow and tier == "slow":
                    continue
                else:
                    run, how = cmd, "run"
                t0 = time.time()
                proc = subprocess.run(["bash", "-c", run], cwd=tmp, capture_output=True,
                                      text=True, timeout=1800)
                dt = time.time() - t0
                ran += 1
                ok = proc.returncode == want
                print(f"{'ok  ' if ok else 'FAIL'} {name}:{line} ({how}, {dt:.1f} s): exit "
                      f"{proc.returncode}, want {want}: {cmd}", flush=True)
                if not ok:
                    failed += 1
                    print((proc.stdout + proc.stderr)[-3000:])
    print(f"{total} documented commands in {sum(1 for _, c in found if c)} files, {ran} run "
          f"({tier} tier) in {time.time() - t_all:.0f} s, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
