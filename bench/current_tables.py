#!/usr/bin/env python3
"""Current figures of skinview_bench, one markdown table per path, each beside its baseline.

BENCHMARKS.md's "Current figures" section is this script's output pasted in: the tables are
made from one run of the benchmark program, so they cannot drift from what it prints. The run
uses Google Benchmark's random interleaving: the repetitions of every benchmark are shuffled
together, so a figure and its baseline (8 against 4 influences, blend/2 and blend_additive/2
against blend/1) see the same load on a shared machine. A figure is the best repetition (least
CPU time): the one least disturbed by other processes.

Google Benchmark's blend ratios swing between runs on a shared VM (blend/2 over blend/1 read
1.63 to 1.95), so when the run has blend benchmarks the script also runs the steady measure,
`build/bench/blend_frames --time ROUNDS` (about 10 s: the four stacks taken in turn in blocks of
8 frames, the 10th percentile of the block times; BENCHMARKS.md round 21), and puts its ratios
to blend/1 beside Google Benchmark's in the "Poses and blending" table.

    python3 bench/current_tables.py                 # the full set, a few minutes
    python3 bench/current_tables.py --quick         # fewer benchmarks and repetitions
    python3 bench/current_tables.py --filter 'skin_method8|skin_method/.*rigid:1'
    python3 bench/current_tables.py --from-json run.json   # tables of a saved run (no run)
    python3 bench/current_tables.py --quick --filter '^blend'   # the blend rows, both measures

Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BENCH = os.path.join("build", "bench", "skinview_bench")
DEFAULT_BLEND_FRAMES = os.path.join("build", "bench", "blend_frames")
# blend_frames --time rounds: ~4.5 s of CPU, ~10 s of wall at load 6 on this 2-core VM.
DEFAULT_STEADY_ROUNDS = 1500

# The names issue 25 holds stable for scripts, as regular expressions over the run names.
FULL_FILTER = ("^(skin_method/method:[0-2]/vertices:1000000/threads:[12]/rigid:[01]"
               "|skin_method8/method:[0-2]/vertices:1000000/threads:[12]"
               "|skin_compact/method:[0-2]/vertices:1000000/threads:[12]"
               "|pose/60|animator/60|blend[a-z_]*/[0-9]+"
               "|first_open/(simple_skin|tube_1M(/iterations:[0-9]+)?)"
               "|reopen/(simple_skin|tube_1M))$")
QUICK_FILTER = ("^(skin_method/method:[0-2]/vertices:1000000/threads:[12]/rigid:1"
                "|skin_method8/method:[0-2]/vertices:1000000/threads:[12]"
                "|skin_compact/method:[0-2]/vertices:1000000/threads:[12]"
                "|pose/60|blend[a-z_]*/[0-9]+"
                "|first_open/simple_skin|reopen/(simple_skin|tube_1M))$")

METHODS = {"0": "LBS", "1": "DQS", "2": "CoR"}
TO_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

SKIN4 = re.compile(r"^skin_method/method:(\d)/vertices:(\d+)/threads:(\d)/rigid:(\d)$")
SKIN8 = re.compile(r"^skin_method8/method:(\d)/vertices:(\d+)/threads:(\d)$")
COMPACT = re.compile(r"^skin_compact/method:(\d)/vertices:(\d+)/threads:(\d)$")
POSE = re.compile(r"^(pose|animator|blend[a-z_]*)/(\d+)$")
OPEN = re.compile(r"^(first_open|reopen|import)/(.+)$")


class Figure:
    """The best of a benchmark's repetitions (least CPU time), or the error it stopped with."""

    def __init__(self, name):
        self.name = name
        self.reps = 0
        self.cpu_s = None  # per iteration, this process
        self.wall_s = None  # per iteration, least of the repetitions
        self.rate = None  # items per CPU second, of the best repetition
        self.worker_cpu_s = None  # the import worker's CPU per iteration, same repetition
        self.error = None

    def add(self, run):
        if run.get("error_occurred"):
            self.error = run.get("error_message", "error")
            return
        unit = TO_SECONDS[run.get("time_unit", "ns")]
        cpu = run["cpu_time"] * unit
        wall = run["real_time"] * unit
        self.reps += 1
        self.wall_s = wall if self.wall_s is None else min(self.wall_s, wall)
        if self.cpu_s is None or cpu < self.cpu_s:
            self.cpu_s = cpu
            self.rate = run.get("items_per_second")
            worker = run.get("worker_cpu_ms")
            self.worker_cpu_s = None if worker is None else worker * 1e-3

    def ok(self):
        return self.error is None and self.reps > 0


def collect(runs):
    """Figures by run name from Google Benchmark's JSON `benchmarks` list (aggregates ignored)."""
    figures = {}
    for run in runs:
        if run.get("run_type", "iteration") != "iteration":
            continue
        # A fixed iteration count is part of Google Benchmark's name, not of the one to keep.
        name = re.sub(r"/iterations:\d+$", "", run.get("run_name", run["name"]))
        figures.setdefault(name, Figure(name)).add(run)
    return figures


def fmt(value, digits=None):
    """`value` with `digits` decimals, or by default at least 3 significant digits."""
    if value is None:
        return "n/a"
    if digits is None:
        bounds = ((0, 100), (1, 10), (2, 1), (3, 0.1))
        digits = next((d for d, bound in bounds if value >= bound), 4)
    return f"{value:.{digits}f}"


def mrate(fig):
    """M vertices/s, or the error."""
    if not fig.ok():
        return f"failed: {fig.error}"
    return fmt(None if fig.rate is None else fig.rate / 1e6, 0)


def ratio(num, den):
    if num is None or den is None or den == 0:
        return "n/a"
    return f"{num / den:.2f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def section(title, note, header, rows):
    """A table's markdown section: rows are (sort key..., cells), sorted by their keys; None when
    there are none."""
    if not rows:
        return None
    rows = sorted(rows, key=lambda r: r[:-1])
    return f"### {title}\n\n{note}\n\n" + table(header, [r[-1] for r in rows])


def skin4_table(figures):
    rows = []
    for name, fig in sorted(figures.items()):
        m = SKIN4.match(name)
        if not m:
            continue
        method, vertices, threads, rigid = m.groups()
        rows.append((method, rigid == "0", threads, [
            METHODS.get(method, method), threads, "rigid" if rigid == "1" else "scaled (+-2%)",
            mrate(fig), fmt(fig.cpu_s and fig.cpu_s * 1e3), fmt(fig.wall_s and fig.wall_s * 1e3),
            str(fig.reps)]))
    return section("Skinning, 4 influences (`skin_method/`, 1M vertices, positions + normals)",
                   "Rates per second of the calling thread's CPU time (Google Benchmark's "
                   "`items_per_second`); on 2 threads it spin-waits for the worker, so its CPU "
                   "time is the job's wall time on an idle machine and less on a busy one.",
                   ["method", "threads", "palette", "M vertices/s", "CPU ms", "wall ms", "reps"],
                   rows)


def skin8_table(figures):
    rows = []
    for name, fig in sorted(figures.items()):
        m = SKIN8.match(name)
        if not m:
            continue
        method, vertices, threads = m.groups()
        four = f"skin_method/method:{method}/vertices:{vertices}/threads:{threads}/rigid:1"
        base = figures.get(four)
        base_rate = base.rate if base is not None and base.ok() else None
        rows.append((method, threads, [
            METHODS.get(method, method), threads, mrate(fig),
            "not run" if base is None else mrate(base),
            ratio(fig.rate if fig.ok() else None, base_rate), ">= 0.5"]))
    return section("Skinning, 8 influences (`skin_method8/`, 1M vertices) against 4 "
                   "(`skin_method/.../rigid:1`, same run)",
                   "The ratio of the two rates; the aim is issue 25's.",
                   ["method", "threads", "8 influences, M vertices/s",
                    "4 influences, M vertices/s", "8 / 4", "aim"], rows)


def compact_table(figures):
    rows = []
    for name, fig in sorted(figures.items()):
        m = COMPACT.match(name)
        if not m:
            continue
        method, vertices, threads = m.groups()
        floats = f"skin_method/method:{method}/vertices:{vertices}/threads:{threads}/rigid:1"
        base = figures.get(floats)
        base_rate = base.rate if base is not None and base.ok() else None
        rows.append((method, threads, [
            METHODS.get(method, method), threads, mrate(fig),
            "not run" if base is None else mrate(base),
            ratio(fig.rate if fig.ok() else None, base_rate), str(fig.reps)]))
    return section("Skinning, compact streams (`skin_compact/`, 1M vertices) against float "
                   "(`skin_method/.../rigid:1`, same run)",
                   "Each method on skin/compact_streams.h's layout (48 B moved per vertex "
                   "against 72; CoR 60 against 84 with its centres), positions + octahedral "
                   "normals; the ratio of the two rates.",
                   ["method", "threads", "compact, M vertices/s", "float, M vertices/s",
                    "compact / float", "reps"], rows)


# One row of `blend_frames --time`'s table: | `blend/2` | p10 ns | p25 ns | median ns | p10 x | ...
STEADY_ROW = re.compile(r"^\|\s*`([a-z_]+/\d+)`\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|"
                        r"\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|")


def parse_steady(text):
    """{case: (p10 ns per frame, p10 ratio to blend/1)} from blend_frames --time's output."""
    steady = {}
    for line in text.splitlines():
        m = STEADY_ROW.match(line.strip())
        if m:
            steady[m.group(1)] = (float(m.group(2)), float(m.group(5)))
    return steady


def pose_table(figures, steady=None):
    """steady: parse_steady's figures, or None when blend_frames did not run."""
    steady = steady or {}
    rows = []
    base = figures.get("blend/1")
    for name, fig in figures.items():
        m = POSE.match(name)
        if not m:
            continue
        kind, arg = m.groups()
        baseline, rel, aim = "", "", ""
        if kind.startswith("blend") and name != "blend/1":
            baseline = "`blend/1`"
            ok = base is not None and base.ok() and fig.ok()
            rel = ratio(fig.cpu_s, base.cpu_s) if ok else "n/a"
            # Two layers, an override or an additive one, against one clip's pose.
            aim = "<= 1.6" if arg == "2" else ""
        steady_us, steady_rel = "", ""
        if name in steady:
            ns, rel_p10 = steady[name]
            steady_us = fmt(ns * 1e-3)
            steady_rel = "" if name == "blend/1" else f"**{rel_p10:.2f}**"
        elif kind.startswith("blend") and steady:
            steady_us = steady_rel = "n/a"
        cpu = f"failed: {fig.error}" if not fig.ok() else fmt(fig.cpu_s * 1e6)
        order = {"pose": 0, "animator": 1}.get(kind, 2)
        cells = [f"`{name}`", cpu, fmt(fig.wall_s and fig.wall_s * 1e6), baseline, rel]
        if steady:
            cells += [steady_us, steady_rel]
        rows.append((order, kind, int(arg), cells + [aim, str(fig.reps)]))
    note = ("CPU time per pose; the ratio is the figure's CPU time over its baseline's (Google "
            "Benchmark's: it moves by 0.1-0.3 between runs on a shared machine), the aim issue "
            "25's.")
    header = ["benchmark", "CPU us per pose", "wall us", "baseline", "ratio"]
    if steady:
        note += (" **The steady measure** (`blend_frames --time`, the two columns before the "
                 "aim): the 10th percentile of 8-frame blocks' time per pose, the stacks taken "
                 "in turn so that each sees the same load, and its ratio to `blend/1`'s; runs "
                 "agree within 0.01-0.02, so read the aim against this ratio.")
        header += ["steady us (p10)", "steady ratio"]
    return section("Poses and blending (60 joints)", note, header + ["aim", "reps"], rows)


def open_table(figures):
    rows = []
    for name, fig in figures.items():
        m = OPEN.match(name)
        if not m:
            continue
        kind, model = m.groups()
        aim = "<= 20 ms" if name == "reopen/tube_1M" else ""
        if fig.ok():
            worker = fig.worker_cpu_s or 0.0
            cells = [fmt(fig.cpu_s * 1e3), fmt(fig.worker_cpu_s and fig.worker_cpu_s * 1e3),
                     fmt((fig.cpu_s + worker) * 1e3), fmt(fig.wall_s * 1e3)]
        else:
            cells = [f"failed: {fig.error}", "", "", ""]
        rows.append((model, kind, [f"`{name}`"] + cells + [aim, str(fig.reps)]))
    return section("Opening a file",
                   "Per open: this process's CPU time, the import worker's (the child process's, "
                   "counter `worker_cpu_ms`), their sum and the wall time; the aim is issue 25's.",
                   ["benchmark", "CPU ms", "worker CPU ms", "CPU ms, both", "wall ms", "aim",
                    "reps"], rows)


def tables(figures, steady=None):
    """The markdown tables, one per path, of the figures present (steady: see pose_table)."""
    parts = [skin4_table(figures), skin8_table(figures), compact_table(figures),
             pose_table(figures, steady), open_table(figures)]
    return "\n\n".join(p for p in parts if p)


def run_steady(binary, rounds):
    """blend_frames --time's figures (parse_steady), its command, the load average before it, and
    an error line (None when it ran)."""
    cmd = [binary, "--time", str(rounds)]
    load = load_average()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    except OSError as e:
        return {}, cmd, load, f"{cmd[0]}: {e}"
    if proc.returncode != 0:
        return {}, cmd, load, f"{cmd[0]} exited with {proc.returncode}"
    steady = parse_steady(proc.stdout)
    if "blend/1" not in steady:
        return {}, cmd, load, f"{cmd[0]} printed no blend/1 row"
    return steady, cmd, load, None


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def load_average():
    try:
        with open("/proc/loadavg", encoding="utf-8") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def busy(load, cores):
    """Whether a load average string's 1-minute figure is above `cores`."""
    try:
        return float(load.split()[0]) > (cores or 1)
    except (ValueError, IndexError):
        return False


def git_commit():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               check=True, capture_output=True, text=True).stdout.strip()
        return head + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=DEFAULT_BENCH, help="the benchmark program (%(default)s)")
    ap.add_argument("--filter", help="a --benchmark_filter regex instead of the default set")
    ap.add_argument("--quick", action="store_true",
                    help="fewer benchmarks (no first_open/tube_1M, rigid palettes only), 2 reps")
    ap.add_argument("--repetitions", type=int, help="repetitions per benchmark (3; --quick 2)")
    ap.add_argument("--min-time", default="0.2", help="--benchmark_min_time (%(default)s s)")
    ap.add_argument("--save-json", help="also write the run's JSON here")
    ap.add_argument("--from-json", help="make the tables from a saved run instead of running")
    ap.add_argument("--blend-frames", default=DEFAULT_BLEND_FRAMES,
                    help="the steady measure's program, run when blend benchmarks are "
                    "(%(default)s)")
    ap.add_argument("--steady-rounds", type=int, default=DEFAULT_STEADY_ROUNDS,
                    help="blend_frames --time ROUNDS (%(default)s: about 10 s); 0: do not run it")
    args = ap.parse_args(argv)

    if args.from_json:
        with open(args.from_json, encoding="utf-8") as f:
            print(tables(collect(json.load(f)["benchmarks"])))
        return 0

    reps = args.repetitions or (2 if args.quick else 3)
    regex = args.filter or (QUICK_FILTER if args.quick else FULL_FILTER)
    cmd = [args.bench, f"--benchmark_filter={regex}", f"--benchmark_repetitions={reps}",
           f"--benchmark_min_time={args.min_time}", "--benchmark_enable_random_interleaving=true",
           "--benchmark_format=json"]
    commit = git_commit()  # what was built, before anything changes during the run
    load_start = load_average()
    start = datetime.datetime.now(datetime.timezone.utc)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    load_end = load_average()
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        sys.stderr.write(f"current_tables.py: {cmd[0]} exited with {proc.returncode}\n")
        return 1
    data = json.loads(proc.stdout)
    if args.save_json:
        with open(args.save_json, "w", encoding="utf-8") as f:
            f.write(proc.stdout)

    figures = collect(data["benchmarks"])
    steady, steady_cmd, steady_load, steady_error = {}, None, None, None
    if args.steady_rounds > 0 and any(POSE.match(n) and n.startswith("blend") for n in figures):
        steady, steady_cmd, steady_load, steady_error = run_steady(args.blend_frames,
                                                                   args.steady_rounds)

    minutes = (datetime.datetime.now(datetime.timezone.utc) - start).total_seconds() / 60
    given = sys.argv[1:] if argv is None else argv
    invocation = " ".join(["python3 bench/current_tables.py"] + [shlex.quote(a) for a in given])
    print(f"Made by `{invocation}` "
          f"on {start:%Y-%m-%d %H:%M} UTC ({minutes:.1f} min), commit `{commit}`. "
          f"Machine: {cpu_model()}, {os.cpu_count()} cores; load average (1, 5, 15 min) "
          f"{load_start} at the start, {load_end} at the end. Every benchmark ran {reps} "
          "times, its repetitions shuffled with the others'; a figure is its repetition with the "
          "least CPU time.")
    if busy(load_start, os.cpu_count()) or busy(load_end, os.cpu_count()):
        print("\n**The machine was busy** (load average above its core count): other processes "
              "took the cores, so wall times include waiting for one and swing from run to run; "
              "compare the CPU columns and the ratios of a figure to its baseline.")
    if steady_cmd is None:
        print("\nThe command:\n")
        print("```sh\n" + " ".join(shlex.quote(c) for c in cmd) + "\n```\n")
    else:
        print("\nThe commands (the second, the steady measure, right after the first; load "
              f"average {steady_load} when it started):\n")
        print("```sh\n" + " ".join(shlex.quote(c) for c in cmd) + "\n" +
              " ".join(shlex.quote(c) for c in steady_cmd) + "\n```\n")
        if steady_error:
            print(f"The steady measure did not run: {steady_error}.\n")
    print(tables(figures, steady))
    return 0


if __name__ == "__main__":
    sys.exit(main())
