#!/usr/bin/env python3
"""Merges tables of asc_devkit.sh runs (-o FILE) into one: for each example, the row of the last
file that has it, in the order of the first file that lists every example (a whole run or -n's
listing). Prints the merged table, the out-of-A2/A3 list and the counts, as asc_devkit.sh does.

Usage: asc_devkit_merge.py FULL_OR_LISTING.md PARTIAL.md... > TABLE.md
"""
import sys



def read(path):
    rows, outs = {}, {}
    order = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        cells = [c.strip() for c in line.split("|")[1:-1]] if line.startswith("| ") else []
        if len(cells) == 5 and cells[0] not in ("example", "---"):
            rows[cells[0]] = line
            order.append(cells[0])
        elif len(cells) == 2 and cells[0] not in ("example", "---"):
            outs[cells[0]] = line
    return order, rows, outs


def cell(line, i):
    return line.split("|")[1:-1][i].strip()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    order, rows, outs = read(sys.argv[1])
    for path in sys.argv[2:]:
        _, more, more_out = read(path)
        rows.update(more)
        outs.update(more_out)
    built = sum(1 for e in order if cell(rows[e], 1) == "yes")
    verified = sum(1 for e in order if cell(rows[e], 2) == "yes")
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
