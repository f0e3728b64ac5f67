#!/usr/bin/env python3
"""Merges tables of asc_devkit.sh runs (-o FILE) into one: for each example, the row of the last
file that has it, in the order of the first file that lists every example (a whole run or -n's
listing). Prints the merged table, the out-of-A2/A3 list and the counts, as asc_devkit.sh does.

Usage: asc_devkit_merge.py FULL_OR_LISTING.md PARTIAL.md... > TABLE.md
"""
import re
import sys

ROW = re.compile(r"^\| (\S+) \| (yes|no|) ?\| (yes|no|ran|) ?\| ([^|]*) \| (.*) \|$")
OUT = re.compile(r"^\| (\S+) \| ([^|]+) \|$")


def read(path):
    rows, outs = {}, {}
    order = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = line
            order.append(m.group(1))
            continue
        m = OUT.match(line)
        if m and m.group(1) not in ("example", "---"):
            outs[m.group(1)] = line
    return order, rows, outs


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    order, rows, outs = read(sys.argv[1])
    for path in sys.argv[2:]:
        _, more, more_out = read(path)
        rows.update(more)
        outs.update(more_out)
    built = sum(1 for e in order if ROW.match(rows[e]).group(2) == "yes")
    verified = sum(1 for e in order if ROW.match(rows[e]).group(3) == "yes")
    print("| example | built | verified | simulated latency | first error / note |")
    print("| --- | --- | --- | --- | --- |")
    for e in order:
        print(rows[e])
    print()
    print("Out of A2/A3 (not built):")
    print()
    print("| example | why |")
    print("| --- | --- |")
    for e in sorted(outs):
        print(outs[e])
    print()
    print(f"A2/A3 examples: {len(order)}, built: {built}, verified: {verified}; "
          f"out of A2/A3: {len(outs)}")


if __name__ == "__main__":
    main()
