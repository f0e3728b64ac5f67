#!/usr/bin/env python3
"""Runs every `build/ascend-sim ...` command of the README's code blocks and checks its exit status.

Usage: test_readme.py BINARY README.md [--tier fast|slow|all] [--list]

A command's trailing comment may say `(exit N)`: the status it must end with (0 otherwise), and
`(slow)`: it takes a minute or more. The tiers:
  fast  every command not marked slow runs as written; every slow one runs with --dry-run added
        (all the CLI's checks of flags, keys, values, ranks, trace scope, output and dump
        directories, without simulating)
  slow  the slow commands run as written (ctest -C slow -R readme_slow)
  all   both
Commands run one after another, in the README's order, in a scratch directory where
build/ascend-sim is the binary under test, so relative paths (out/, out/config.ini) work as
they do for a reader in the repository's root.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time


def commands(readme):
    """(line number, command, expected status, slow) of every build/ascend-sim line in a block."""
    out = []
    in_block = False
    lines = open(readme, encoding="utf-8").read().split("\n")
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


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, readme = os.path.abspath(args[0]), os.path.abspath(args[1])
    tier = args[args.index("--tier") + 1] if "--tier" in args else "fast"
    cmds = commands(readme)
    if not cmds:
        sys.exit(f"FAIL: no build/ascend-sim command found in {readme}")
    if "--list" in args:
        for line, cmd, status, slow in cmds:
            print(f"{line}: exit {status}{' slow' if slow else ''}: {cmd}")
        return
    failed = 0
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
            proc = subprocess.run(["bash", "-c", run], cwd=tmp, capture_output=True, text=True,
                                  timeout=1800)
            dt = time.time() - t0
            ok = proc.returncode == want
            print(f"{'ok  ' if ok else 'FAIL'} README.md:{line} ({how}, {dt:.1f} s): exit "
                  f"{proc.returncode}, want {want}: {cmd}")
            if not ok:
                failed += 1
                print((proc.stdout + proc.stderr)[-3000:])
    print(f"{len(cmds)} README commands, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
