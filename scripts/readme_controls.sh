#!/usr/bin/env bash
# scripts/readme_controls.sh [path/to/skinview]
# Regenerates the README's Controls list (between "<!-- controls: generated from
# src/ui/controls.h -->" and "<!-- controls end -->") from `skinview --help`, which prints the
# bindings table (src/ui/controls.h). tests/ui/ui_parts_test.cpp checks that the two agree.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/build/skinview}
"$exe" --help | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
start = next(k for k, l in enumerate(lines) if l.startswith("Controls (in the window"))
body = [l for l in lines[start + 1:] if l.startswith("  ") and l.strip()]
# controls_text pads every input to one column: the most common end of "  INPUT  ".
ends = [m.end() for l in body for m in [re.match(r"  (\S.*?)\s{2,}", l)] if m]
col = max(set(ends), key=ends.count)
out = "".join("- **%s**: %s\n" % (l[2:col].rstrip(), l[col:]) for l in body)
path = sys.argv[1]
readme = open(path).read()
begin, end = "<!-- controls: generated from src/ui/controls.h -->\n", "<!-- controls end -->"
a, z = readme.index(begin) + len(begin), readme.index(end)
open(path, "w").write(readme[:a] + out + readme[z:])
' "$root/README.md"
