#!/usr/bin/env bash
# Installs, from Debian's packages only, everything phaseprobe needs to build,
# test and run. Idempotent and quiet when nothing is missing, so the quickstart
# and the test command can both call it on every run.
set -euo pipefail

PACKAGES=(
  cmake ninja-build python3
  clang-14 llvm-14-dev llvm-14-tools libclang-14-dev libomp-14-dev
  nlohmann-json3-dev libsqlite3-dev sqlite3 libhwloc-dev
  libgtest-dev libgmock-dev libcli11-dev
  valgrind binutils
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "phaseprobe: installing missing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "phaseprobe: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
