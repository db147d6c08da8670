#!/usr/bin/env bash
# scripts/readme_tables.sh [--check] [path/to/skinview]
# Regenerates the README's volume table (README.md, "The volume figure") from what
# `skinview --info assets/default.glb --method M` prints for LBS, DQS and CoR, and writes it
# between the README's markers
#   <!-- volume-table: begin (scripts/readme_tables.sh) -->  ...  <!-- volume-table: end -->
# With --check it writes nothing and exits 1 (showing the difference) when the README's table is
# not what the program prints now: the test suite runs it so, so the table cannot drift.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
exe="${1:-build/skinview}"
model=assets/default.glb
begin='<!-- volume-table: begin (scripts/readme_tables.sh) -->'
end='<!-- volume-table: end -->'

# One line per clip and closed mesh: "clip<TAB>mesh<TAB>+1.62% at 2.000 s", from the lines
#   "  [0] 'idle': 121 poses, 30 per second and the end"
#   "      'body': +1.62% at 2.000 s (min ..., max ...)"   (a +0.00% has no time)
rows() {
  "$exe" --info "$model" --method "$1" --no-cache |
    sed -n -e "/^Volume change/,/^[^ ]/{
      s/^  \[[0-9]*\] '\(.*\)': .*/C	\1/p
      s/^      '\(.*\)': \([+-][0-9.]*%\( at [0-9.]* s\)\{0,1\}\) (.*/M	\1	\2/p
    }" |
    awk -F'\t' '$1 == "C" { clip = $2 } $1 == "M" { print clip "\t" $2 "\t" $3 }'
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for m in lbs dqs cor; do
  rows "$m" >"$tmp/$m"
  if [ ! -s "$tmp/$m" ]; then
    echo "readme_tables.sh: no volume lines from $exe --info $model --method $m" >&2
    exit 2
  fi
done
for m in dqs cor; do
  if ! cmp -s <(cut -f1,2 "$tmp/lbs") <(cut -f1,2 "$tmp/$m"); then
    echo "readme_tables.sh: the clips and meshes of --method $m differ from LBS's" >&2
    exit 2
  fi
done
{
  echo "$begin"
  echo "| clip | mesh | LBS | DQS | CoR |"
  echo "| --- | --- | --- | --- | --- |"
  paste "$tmp/lbs" <(cut -f3 "$tmp/dqs") <(cut -f3 "$tmp/cor") |
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }'
  echo "$end"
} >"$tmp/table"

if ! grep -qxF "$begin" README.md || ! grep -qxF "$end" README.md; then
  echo "readme_tables.sh: README.md lacks the markers: $begin ... $end" >&2
  exit 2
fi
# The README with the lines between (and including) the markers replaced by the table.
awk -v begin="$begin" -v end="$end" -v table="$tmp/table" '
  $0 == begin { while ((getline line < table) > 0) print line; skip = 1; next }
  $0 == end { skip = 0; next }
  !skip { print }' README.md >"$tmp/README.md"
if [ "$check" = 1 ]; then
  if ! diff -u README.md "$tmp/README.md"; then
    echo "readme_tables.sh: README.md's volume table is not what $exe --info prints now;" \
      "run scripts/readme_tables.sh to regenerate it" >&2
    exit 1
  fi
  exit 0
fi
cp "$tmp/README.md" README.md
