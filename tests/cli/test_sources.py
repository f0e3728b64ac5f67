#!/usr/bin/env python3
"""Every source a parameter cites is defined in docs/sources.md.

Usage: test_sources.py BINARY docs/sources.md

Checks, over `ascend-sim --list-params --json` (every parameter of every kernel):
  - each reference key in brackets ([CM], [INI-C], ...) has a row of the sources file's tables
    (a line starting with "| `[KEY]`");
  - each note or document named (kernels.md, hardware.md, seeds/NNN) is defined there too;
  - a trailing confidence letter is one of H, M, L;
and that the text `--list-params` prints says where the keys are defined.
"""
import json
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, doc_path = sys.argv[1], sys.argv[2]
    doc = open(doc_path, encoding="utf-8").read()
    params = json.loads(subprocess.run([binary, "--list-params", "--json"], check=True,
                                       capture_output=True, text=True).stdout)
    problems = []
    keys = set()
    for p in params:
        src = p["source"]
        for key in re.findall(r"\[([A-Z][A-Z0-9-]*)\]", src):
            keys.add(key)
            if not re.search(r"^\| `\[" + re.escape(key) + r"\]` \|", doc, re.M):
                problems.append(f"{p['key']}: source key [{key}] is not defined in {doc_path}")
        for name in re.findall(r"\b(\w+\.md|seeds/\d+)", src):
            if f"`{name}" not in doc:
                problems.append(f"{p['key']}: source '{name}' is not defined in {doc_path}")
        m = re.search(r", ([A-Z])$", src)
        if m and m.group(1) not in "HML":
            problems.append(f"{p['key']}: confidence '{m.group(1)}' is not H, M or L")
    if len(keys) < 5:  # the registry cites [CM], [INI-C], [DMA], ...: the regex must find them
        problems.append(f"only {sorted(keys)} found: the source lines changed form")
    text = subprocess.run([binary, "--list-params"], check=True, capture_output=True,
                          text=True).stdout
    if doc_path.split("/")[-1] not in text:
        problems.append("--list-params does not say where the source keys are defined")
    for p in problems:
        print("FAIL:", p)
    print(f"{len(params)} parameters, {len(keys)} source keys {sorted(keys)}, "
          f"{len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
