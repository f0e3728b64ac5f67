#!/usr/bin/env python3
"""The module tree drawn in docs/model/core.md is the one the simulator builds: every module path
the drawing names exists in `ascend-sim --list-modules` of a machine large enough to hold it (an
A3 run of 4 dies with a cube kernel's AICs; the a2 ports on an A2 run of 4 dies).

A line of the drawing names a module by its full path (`cluster.die3.hbm`), or by names relative
to one: `.ub .vector` are children of the path on the line before; `, .ub_ingress` after a full
path is its sibling; `(a2: .roce_out, ...)` are siblings on the a2 preset (`dieN` is die 0).

Usage: test_module_tree.py BINARY docs/model/core.md
"""
import re
import subprocess
import sys

HEADING = "## The module tree"


def drawing(doc):
    """The first code block after the heading."""
    after = doc.split(HEADING, 1)[1]
    return after.split("```", 2)[1].strip("\n").splitlines()


def named_paths(lines):
    """(preset, path) of every module the drawing names."""
    out, previous = [], None
    for line in lines:
        text = line.strip()
        first = text.split()[0] if text else ""
        if first.startswith("cluster"):
            full = first.rstrip(",")
            out.append(("a3", full))
            previous = full
            parent = full.rsplit(".", 1)[0]
            a2 = re.search(r"\(a2: ([^)]*)\)", text)
            rest = text[:a2.start()] if a2 else text
            for sibling in re.findall(r",\s*(\.[a-z0-9_]+)", rest):
                out.append(("a3", parent + sibling))
            if a2:
                for sibling in re.findall(r"\.[A-Za-z0-9_]+", a2.group(1)):
                    out.append(("a2", (parent + sibling).replace("dieN", "die0")))
        elif first.startswith(".") and previous:
            for child in re.findall(r"(?:^|\s)(\.[a-z0-9_]+)", text.split("  ")[0]):
                out.append(("a3", previous + child))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, doc_path = sys.argv[1], sys.argv[2]
    paths = named_paths(drawing(open(doc_path, encoding="utf-8").read()))
    runs = {
        "a3": ["--list-modules", "--kernel", "moe", "--ep", "4", "--experts", "8", "--bs", "8",
               "--quant", "none", "--set", "moe.experts=ffn"],
        "a2": ["--list-modules", "--preset", "a2", "--ep", "4"],
    }
    trees = {}
    for preset, args in runs.items():
        p = subprocess.run([binary, *args], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"ascend-sim {' '.join(args)}: exit {p.returncode}: {p.stderr[-300:]}")
        trees[preset] = {line.strip() for line in p.stdout.splitlines()}
    missing = [f"{path} ({preset})" for preset, path in paths if path not in trees[preset]]
    if len(paths) < 10:
        missing.append(f"the drawing names only {len(paths)} modules: is it still under "
                       f"'{HEADING}'?")
    for m in missing:
        print(f"{doc_path}: the drawing names {m}, which --list-modules does not show")
    if missing:
        sys.exit(1)
    print(f"module tree: the {len(paths)} modules the drawing names all exist")


if __name__ == "__main__":
    main()
