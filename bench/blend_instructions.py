#!/usr/bin/env python3
"""Instructions per pose of the blend benchmarks' stacks, counted by valgrind's callgrind.

CPU time on this shared virtual machine moves by up to 30% between runs; an instruction count
does not. Each case (bench/blend_cases.h) is posed a fixed number of frames by blend_frames under
callgrind, counting inside SkinnedPose::evaluate only; the table gives instructions per frame and
the ratio to blend/1 (issue 25's aim: blend/2 and blend_additive/2 <= 1.6x blend/1 in time).
Valgrind has no AVX-512, so the counts are of the AVX2 kernels.

    python3 bench/blend_instructions.py                       # build/bench/blend_frames
    python3 bench/blend_instructions.py --bin OTHER/blend_frames --functions

Python 3 standard library only; needs valgrind and callgrind_annotate.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("blend", 1), ("blend", 2), ("blend_additive", 2), ("blend", 4)]


def short_name(function):
    """A demangled name without its return type, template arguments and parameters."""
    name = function.replace("(anonymous namespace)::", "")
    name = re.sub(r"^void ", "", name)
    return re.split(r"[(<]", name, maxsplit=1)[0]


def count(binary, name, layers, frames, functions):
    """Instructions per frame, and per function (self cost) when asked."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=sv::SkinnedPose::evaluate*", binary, name,
                        str(layers), str(frames)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = subprocess.run(["callgrind_annotate", out], check=True, capture_output=True,
                              text=True).stdout
    total = None
    per_function = []
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+) .*PROGRAM TOTALS", line)
        if m:
            total = int(m.group(1).replace(",", ""))
            continue
        m = re.match(r"^\s*([\d,]+) \([ \d.]+%\)\s+\S*?:(.*?)( \[.*\])?$", line)
        if m and total is not None:
            per_function.append((int(m.group(1).replace(",", "")), m.group(2)))
    if total is None:
        sys.exit("no PROGRAM TOTALS in callgrind_annotate's output")
    short = [(ir / frames, short_name(f)) for ir, f in per_function[:functions]]
    return total / frames, short


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bench", "blend_frames"))
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--functions", type=int, default=0,
                    help="also list this many functions by their own instructions per frame")
    args = ap.parse_args()
    print(f"Instructions per frame, `{os.path.relpath(args.bin, ROOT)}`, {args.frames} frames"
          " under callgrind (SkinnedPose::evaluate only, AVX2 kernels):\n")
    print("| case | instructions per frame | x `blend/1` |")
    print("| --- | --- | --- |")
    base = None
    details = []
    for name, layers in CASES:
        ir, functions = count(args.bin, name, layers, args.frames, args.functions)
        base = ir if base is None else base
        print(f"| `{name}/{layers}` | {ir:,.0f} | {ir / base:.2f} |")
        details.append((f"{name}/{layers}", functions))
    for case, functions in details:
        if functions:
            print(f"\n`{case}`, own instructions per frame:\n")
            for ir, f in functions:
                print(f"- {ir:,.0f} `{f}`")


if __name__ == "__main__":
    main()
