#!/usr/bin/env bash
# validate_gltf.sh BUILD_DIR FILE.glb
# Runs the Khronos glTF validator (npm package gltf-validator, under Node.js) on FILE and fails
# when it reports any error; warnings and infos are printed but pass. The package is installed
# into BUILD_DIR/gltf-validator the first time. Exits 77 (ctest: skipped) when node/npm are
# missing or the package cannot be installed (no network), so an offline build does not fail
# for a reason that has nothing to do with the asset.
set -euo pipefail
build_dir="$1"
file="$2"
version="2.0.0-dev.3.10"
prefix="$build_dir/gltf-validator"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node and npm are needed for the glTF validator (scripts/test.sh installs them)"
  exit 77
fi
if [ ! -f "$prefix/node_modules/gltf-validator/package.json" ]; then
  mkdir -p "$prefix"
  # npm installs into the nearest folder with a package.json; give it one of its own.
  [ -f "$prefix/package.json" ] || echo '{"private": true}' >"$prefix/package.json"
  if ! (cd "$prefix" && npm install --no-audit --no-fund "gltf-validator@$version" >npm.log 2>&1); then
    cat "$prefix/npm.log"
    echo "SKIP: could not install gltf-validator@$version into $prefix"
    exit 77
  fi
fi

NODE_PATH="$prefix/node_modules" node - "$file" <<'JS'
const fs = require('fs');
const validator = require('gltf-validator');
const file = process.argv[2];
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 0, writeTimestamp: false})
  .then((report) => {
    const i = report.issues;
    console.log(JSON.stringify(report, null, 1));
    console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
    process.exit(i.numErrors === 0 ? 0 : 1);
  })
  .catch((e) => { console.error(`${file}: validator failed: ${e}`); process.exit(1); });
JS
