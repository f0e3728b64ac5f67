#!/usr/bin/env python3
"""stats.json is described once: every field a run writes has its row in `ascend-sim --list-stats`,
every row is written by some run, and docs/reference/stats.md holds the table as printed; the
model's counters (`ascend-sim --list-counters`) each have a unit and a meaning, and the page holds
their table as printed too.

Usage: test_stats.py BINARY docs/reference/stats.md
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BEGIN, END = "<!-- generated: ascend-sim --list-stats -->", "<!-- end of generated -->"
COUNTERS_ARGS = ["--list-counters", "--ep", "2"]
COUNTERS_BEGIN = "<!-- generated: ascend-sim --list-counters --ep 2 -->"
# Scenarios that together write every field: plain, cube cores, a round trip with figure objects,
# the fabric's ports, and a scaled-down run with its healthy comparison.
SCENARIOS = [
    ["--kernel", "stream", "--set", "stats.modules=1", "--set", "sim.check_issue_timing=1"],
    ["--kernel", "ffn", "--tokens", "64", "--hidden", "256", "--intermediate", "256"],
    ["--kernel", "moe", "--ep", "4", "--experts", "8", "--bs", "8", "--hidden", "1024"],
    ["--kernel", "dispatch", "--ep", "5", "--experts", "10", "--bs", "8", "--hidden", "1024",
     "--dead-ranks", "2", "--scale-down", "1"],
]
# Rows only a program built against the SDK writes.
SDK_ONLY = {"run.entry"}
PLACEHOLDER = re.compile(r"<[A-Z]+>")


def leaves(node, path=""):
    """(path, value) of every scalar and empty container; list elements are `[]`."""
    if isinstance(node, dict):
        if not node:
            yield path, node
        for k, v in node.items():
            yield from leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list):
        if not node:
            yield path + "[]", node
        for v in node:
            yield from leaves(v, path + "[]")
    else:
        yield path, node


def row_regex(row):
    """A placeholder is one key; <COUNTER> may hold dots (SCALAR.busy_ps)."""
    out, at = "^", 0
    for m in PLACEHOLDER.finditer(row):
        out += re.escape(row[at:m.start()])
        out += "[^\\[]+" if m.group() == "<COUNTER>" else "[^.\\[]+"
        at = m.end()
    return re.compile(out + re.escape(row[at:]) + "$")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, doc_path = sys.argv[1], sys.argv[2]
    table = subprocess.run([binary, "--list-stats"], check=True, capture_output=True,
                           text=True).stdout
    rows = json.loads(subprocess.run([binary, "--list-stats", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    problems = []
    doc = open(doc_path, encoding="utf-8").read()
    if BEGIN not in doc or END not in doc:
        problems.append(f"{doc_path}: no generated block ({BEGIN} ... {END})")
    elif doc.split(BEGIN, 1)[1].split(END, 1)[0].strip() != table.strip():
        problems.append(f"{doc_path}: the table differs from `ascend-sim --list-stats`; "
                        "paste its output between the markers")
    counters = subprocess.run([binary, *COUNTERS_ARGS], check=True, capture_output=True,
                              text=True).stdout
    if COUNTERS_BEGIN not in doc or END not in doc.split(COUNTERS_BEGIN, 1)[-1]:
        problems.append(f"{doc_path}: no generated block ({COUNTERS_BEGIN} ... {END})")
    elif doc.split(COUNTERS_BEGIN, 1)[1].split(END, 1)[0].strip() != counters.strip():
        problems.append(f"{doc_path}: the counters' table differs from `ascend-sim "
                        f"{' '.join(COUNTERS_ARGS)}`; paste its output between the markers")
    counter_rows = json.loads(subprocess.run([binary, *COUNTERS_ARGS, "--json"], check=True,
                                             capture_output=True, text=True).stdout)
    modules = {r["module"].split(" ")[0] for r in counter_rows}
    for want in ("cluster.die0.aiv0", "cluster.die0.aic0", "cluster.die0.hbm", "cluster.die0.l2",
                 "cluster.fabric.die0.ub_egress"):
        if want not in modules:
            problems.append(f"--list-counters lists no counter of {want}'s kind")
    for r in counter_rows:
        if not r["unit"] or not r["description"]:
            problems.append(f"counter {r['module']} {r['name']} lacks a unit or a meaning")
    regexes = [(r["path"], row_regex(r["path"])) for r in rows]
    seen = set()
    for args in SCENARIOS:
        with tempfile.TemporaryDirectory() as out:
            p = subprocess.run([binary, *args, "--out", out], capture_output=True, text=True)
            if p.returncode != 0:
                problems.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr[-300:]}")
                continue
            stats = json.load(open(os.path.join(out, "stats.json")))
        for i, k in enumerate(stats["kernels"]):
            figures = set(k.get("units", {}))
            for path, _ in leaves(k, "kernels[]"):
                top = path[len("kernels[]."):].split(".")[0].split("[")[0]
                if top in figures:
                    seen.add("kernels[].<FIGURE>")
                    continue
                hit = [row for row, rx in regexes if rx.match(path)]
                if not hit:
                    problems.append(f"{' '.join(args)}: kernels[{i}] field {path} is not described")
                seen.update(hit)
        # A note's key is a described path, whole.
        for key in stats.get("notes", {}):
            seen.add("notes.<KEY>")
            if not any(rx.match(key) or rx.match(key + "[]") for _, rx in regexes):
                problems.append(f"{' '.join(args)}: notes.{key} notes a field that is not described")
        for section in ("simulator", "run"):
            for path, _ in leaves(stats[section], section):
                hit = [row for row, rx in regexes if rx.match(path)]
                if not hit:
                    problems.append(f"{' '.join(args)}: field {path} is not described")
                seen.update(hit)
    # stats.modules only adds kernels[].modules: every other field is the same with it off.
    runs = []
    for extra in ([], ["--set", "stats.modules=1"]):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([binary, "--kernel", "stream", "--set", "stream.cores=4", *extra,
                            "--out", out], check=True, capture_output=True)
            runs.append(json.load(open(os.path.join(out, "stats.json")))["kernels"])
    if not runs[1][0].get("modules"):
        problems.append("stats.modules = 1 wrote no kernels[].modules")
    runs[1][0].pop("modules", None)
    if runs[0] != runs[1]:
        problems.append("stats.modules = 1 changed a figure besides kernels[].modules")
    # A row is written when it or a row below it was seen (`kernels[]` by `kernels[].name`).
    for r in rows:
        path = r["path"]
        if path in SDK_ONLY or any(s == path or s.startswith(path + ".") or
                                   s.startswith(path + "[") for s in seen):
            continue
        problems.append(f"row {path} is written by none of the scenarios")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"stats: {len(rows)} fields described, every written field among them; "
          f"{len(counter_rows)} counters, each with a unit and a meaning")


if __name__ == "__main__":
    main()
