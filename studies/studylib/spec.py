"""The sweep spec: an INI file, the project's config style, expanded into runs.

  [study]     name, title, description, kernel, preset, jobs, timeout_s, plot_formats
  [fixed]     key = value: a --set every run shares
  [vary]      key = values: one axis per key; the axes combine as a product
  [zip]       key = values: keys that move together (equal lengths) make one axis; [zip NAME]
              sections make more
  [quick]     key = value(s): replaces the same key of [fixed], [vary] or [zip] (a new key is
              fixed) under --quick, so a study has a CI-sized variant
  [figures]   collect = the figures the summary's table shows (default latency_ns), kernels =
              the kernel records it shows (default all)
  [plot NAME] x, y, kernels, series, where, title, logx, logy: one figure per section
  [slurm]     partition, time, mem, cpus_per_task, max_parallel, extra: sbatch options

Values: a comma-separated list; an item may be a range, inclusive: `100..400 step 100`, `8..256
x2` (geometric), `1..4` (step 1).
"""
import configparser
import hashlib
import itertools
import json
import os
import re


class SpecError(Exception):
    pass


class Run:
    """One point of the sweep: the parameters it varies and every --set it runs with."""

    def __init__(self, index, kernel, preset, point, sets):
        self.index = index
        self.kernel = kernel
        self.preset = preset
        self.point = point
        self.sets = sets
        # The run's identity: the same kernel, preset and parameters give the same key, whatever
        # the spec's spelling (order, list or range) or the point's place in the sweep.
        canon = json.dumps({"kernel": kernel, "preset": preset, "set": sorted(sets.items())})
        self.key = hashlib.sha256(canon.encode()).hexdigest()[:16]

    def label(self):
        return " ".join(f"{k}={v}" for k, v in self.point.items()) or "(the base run)"

    def to_json(self):
        return {"index": self.index, "key": self.key, "kernel": self.kernel,
                "preset": self.preset, "point": self.point, "sets": self.sets}

    @staticmethod
    def from_json(d):
        return Run(d["index"], d["kernel"], d["preset"], d["point"], d["sets"])


def _number_text(x):
    x = round(x, 9)
    return str(int(x)) if x == int(x) else repr(x)


def parse_values(text, where):
    """'a, b, 100..400 step 100, 8..64 x2' -> ['a', 'b', '100', ..., '8', '16', ...]."""
    out = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            raise SpecError(f"{where}: empty value in '{text}'")
        m = re.fullmatch(r"(\S+)\s*\.\.\s*(\S+?)(?:\s+(step|x)\s*(\S+)|\s*x(\S+))?", item)
        if not m:
            out.append(item)
            continue
        try:
            start, stop = float(m.group(1)), float(m.group(2))
            geometric = m.group(3) == "x" or m.group(5) is not None
            by = float(m.group(4) or m.group(5) or 1)
        except ValueError:
            raise SpecError(f"{where}: '{item}' is not a range (START..STOP [step S | xF])")
        if (geometric and (by <= 1 or start <= 0)) or (not geometric and by <= 0) or stop < start:
            raise SpecError(f"{where}: range '{item}' does not go from {m.group(1)} up to "
                            f"{m.group(2)}")
        i, x = 0, start
        while x <= stop * (1 + 1e-12):
            out.append(_number_text(x))
            i += 1
            x = start * by**i if geometric else start + by * i
            if i > 100000:
                raise SpecError(f"{where}: range '{item}' has more than 100000 values")
    return out


class Study:
    def __init__(self, path, quick=False):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        self.quick = quick
        if not os.path.isfile(path):
            raise SpecError(f"{path}: no such spec file")
        self.text = open(path, encoding="utf-8").read()
        ini = configparser.ConfigParser(inline_comment_prefixes=("#", ";"), interpolation=None)
        ini.optionxform = str  # parameter keys are case-sensitive (fabric.port_GBps)
        try:
            ini.read_string(self.text, source=path)
        except configparser.Error as e:
            raise SpecError(f"{path}: {e}")
        known = {"study", "fixed", "vary", "zip", "quick", "figures", "slurm"}
        for s in ini.sections():
            if s not in known and not s.startswith(("zip ", "plot ")):
                raise SpecError(f"{path}: unknown section [{s}] (known: {', '.join(sorted(known))}"
                                ", [zip NAME], [plot NAME])")
        st = ini["study"] if ini.has_section("study") else {}
        self.name = st.get("name", os.path.splitext(os.path.basename(path))[0])
        self.title = st.get("title", self.name)
        self.description = st.get("description", "")  # what the study shows: the summary's lead
        self.kernel = st.get("kernel", "dispatch")
        self.preset = st.get("preset", "a3")
        self.jobs = int(st.get("jobs", "0")) or os.cpu_count() or 1
        self.timeout_s = float(st.get("timeout_s", "3600"))
        self.fixed = dict(ini["fixed"]) if ini.has_section("fixed") else {}
        vary = dict(ini["vary"]) if ini.has_section("vary") else {}
        zips = [dict(ini[s]) for s in ini.sections() if s == "zip" or s.startswith("zip ")]
        if quick and ini.has_section("quick"):
            for k, v in ini["quick"].items():
                groups = [g for g in [vary, *zips] if k in g]
                if groups:
                    groups[0][k] = v
                else:
                    self.fixed[k] = v
        # Axes: each [vary] key alone, each zip group together; the product of the axes is the sweep.
        self.axes = []
        for k, v in vary.items():
            self.axes.append([(k,)] + [(x,) for x in parse_values(v, f"[vary] {k}")])
        for z in zips:
            cols = {k: parse_values(v, f"[zip] {k}") for k, v in z.items()}
            lengths = {len(c) for c in cols.values()}
            if len(lengths) > 1:
                raise SpecError(f"{path}: [zip] keys must have as many values each: "
                                + ", ".join(f"{k} {len(c)}" for k, c in cols.items()))
            self.axes.append([tuple(cols)] + list(zip(*cols.values())))
        self.varied = [k for axis in self.axes for k in axis[0]]
        dup = {k for k in self.varied if self.varied.count(k) > 1} | (set(self.varied) & set(self.fixed))
        if dup:
            raise SpecError(f"{path}: {', '.join(sorted(dup))} set in more than one place")
        fig = ini["figures"] if ini.has_section("figures") else {}
        self.collect = [s.strip() for s in fig.get("collect", "latency_ns").split(",") if s.strip()]
        self.collect_kernels = [s.strip() for s in fig.get("kernels", "").split(",") if s.strip()]
        self.plots = []
        for s in ini.sections():
            if s.startswith("plot "):
                p = dict(ini[s])
                p["name"] = s[5:].strip()
                for need in ("x", "y"):
                    if need not in p:
                        raise SpecError(f"{path}: [{s}] needs '{need}'")
                self.plots.append(p)
        self.plot_formats = [f.strip() for f in st.get("plot_formats", "png").split(",")]
        self.slurm = dict(ini["slurm"]) if ini.has_section("slurm") else {}

    def keys(self):
        """Every parameter key the spec sets."""
        return list(self.fixed) + self.varied

    def runs(self):
        values = [axis[1:] for axis in self.axes]
        names = [axis[0] for axis in self.axes]
        out = []
        for i, combo in enumerate(itertools.product(*values)):
            point = {}
            for keys, vals in zip(names, combo):
                point.update(zip(keys, vals))
            out.append(Run(i, self.kernel, self.preset, point, {**self.fixed, **point}))
        return out
