#!/usr/bin/env python3
"""No include points up a layer.

Usage: test_layers.py SOURCE_ROOT

The layers, lowest first; a file may include its own layer and those below it:
  models/   the hardware (SystemC modules, the cost model, the scheduler)
  api/      the Ascend C facade a kernel is written against, and the runtime under it
  sim/      the engine: parameters, the run, traces, VCD, outputs
  kernels/  the built-in kernels: device code, tiling, goldens, the kernel list
  apps/, sdk/  the applications: the ascend-sim command line; a user's own program
An include names a layer by its first path component ("sim/params.h" is in sim/); includes
that name no layer (system headers, a kernel's sibling files, the SDK's kit-shaped headers) are
not checked. The check runs on itself first (a tree with an upward include must fail).
"""
import os
import re
import sys
import tempfile

LAYERS = ["models", "api", "sim", "kernels", "apps"]
RANK = {name: i for i, name in enumerate(LAYERS)}
RANK["sdk"] = RANK["apps"]
# The applications sit side by side: neither includes the other.
SIBLINGS = {("apps", "sdk"), ("sdk", "apps")}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCE = (".h", ".hpp", ".cpp", ".cc", ".inc", ".in")


def violations(root):
    found = []
    for layer in RANK:
        top = os.path.join(root, layer)
        for dirpath, _, files in os.walk(top):
            for name in files:
                if not name.endswith(SOURCE):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for inc in INCLUDE.findall(text):
                    target = inc.split("/", 1)[0] if "/" in inc else None
                    if target not in RANK or target == layer:
                        continue
                    if RANK[target] > RANK[layer] or (layer, target) in SIBLINGS:
                        rel = os.path.relpath(path, root)
                        found.append(f"{rel}: includes \"{inc}\" ({target}/ is above {layer}/)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as d:
        for sub, text in [("models/a.h", '#include "models/b.h"\n'),
                          ("sim/ok.cpp", '#include "api/x.h"\n#include "models/a.h"\n'),
                          ("api/bad.h", '#include "sim/params.h"\n'),
                          ("sdk/bad.cpp", '#include "apps/ascend-sim/cli.h"\n')]:
            os.makedirs(os.path.dirname(os.path.join(d, sub)), exist_ok=True)
            with open(os.path.join(d, sub), "w") as f:
                f.write(text)
        got = violations(d)
        want = ["api/bad.h", "sdk/bad.cpp"]
        if sorted(v.split(":")[0] for v in got) != want:
            sys.exit(f"self-test: expected violations in {want}, got {got}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    self_test()
    found = violations(sys.argv[1])
    if found:
        print("includes that point up a layer (see tests/cli/test_layers.py):")
        for v in found:
            print("  " + v)
        sys.exit(1)
    print("layers: no include points up")


if __name__ == "__main__":
    main()
