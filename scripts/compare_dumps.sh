#!/usr/bin/env bash
# scripts/compare_dumps.sh OLD_SKINVIEW NEW_SKINVIEW [MODELS_DIR]
# Runs `--dump --times 0,0.37,1.1` of every file under MODELS_DIR (default: Debian's
# assimp-testmodels) through two builds of skinview and compares the JSON byte for byte: the
# check that a change to the import path changes no model ("same"), or only loads files that
# were refused ("better"). Prints each file that differs, now loads, or no longer loads, then the
# counts; exits 1 when any file differs or no longer loads. The new build runs with --no-cache
# (the old one may predate the cache and the option).
set -uo pipefail
old="$1"
new="$2"
models="${3:-/usr/share/assimp/models}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
same=0 differ=0 better=0 worse=0 both_refused=0
while IFS= read -r f; do
  timeout 120 "$old" --dump "$f" --times 0,0.37,1.1 -o "$out/old.json" >/dev/null 2>"$out/old.err"
  ro=$?
  timeout 120 "$new" --dump "$f" --times 0,0.37,1.1 --no-cache -o "$out/new.json" >/dev/null \
    2>"$out/new.err"
  rn=$?
  if [ "$ro" -eq 0 ] && [ "$rn" -eq 0 ]; then
    if cmp -s "$out/old.json" "$out/new.json"; then
      same=$((same + 1))
    else
      differ=$((differ + 1))
      echo "differs: $f"
    fi
  elif [ "$ro" -ne 0 ] && [ "$rn" -eq 0 ]; then
    better=$((better + 1))
    echo "now loads: $f (was: $(head -c 160 "$out/old.err"))"
  elif [ "$ro" -eq 0 ]; then
    worse=$((worse + 1))
    echo "no longer loads: $f ($(head -c 160 "$out/new.err"))"
  else
    both_refused=$((both_refused + 1))
  fi
  rm -f "$out/old.json" "$out/new.json"
done < <(find "$models" -type f | sort)
echo "same $same, differ $differ, now load $better, no longer load $worse, refused by both $both_refused"
[ "$differ" -eq 0 ] && [ "$worse" -eq 0 ]
