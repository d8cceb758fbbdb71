#!/usr/bin/env bash
# Vendor axe-core's axe.min.js (from the npm registry) into tests/browser/fixtures/ for the
# browser tests' contrast and accessibility checks. Usage: scripts/vendor_axe.sh [version]
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-4.10.2}"
dest=tests/browser/fixtures
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "axe-core@${version}" >/dev/null)
tar -xzf "$tmp"/axe-core-*.tgz -C "$tmp" package/axe.min.js package/LICENSE
mkdir -p "$dest"
cp "$tmp/package/axe.min.js" "$dest/axe.min.js"
cp "$tmp/package/LICENSE" "$dest/axe-core-LICENSE"
echo "axe-core ${version} -> $dest/axe.min.js"
