#!/usr/bin/env bash
# The whole test suite from a clean build directory: installs what is missing
# (Debian packages), configures, builds, and runs every unit and lit test.
# Usage: scripts/test.sh [build-dir]   (default: build-test, wiped first)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-test}
"$root/scripts/install-deps.sh"
rm -rf "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest --output-on-failure -j "$(nproc)" --timeout 1500
