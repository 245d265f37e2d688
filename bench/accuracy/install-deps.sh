#!/usr/bin/env bash
# The accuracy bench's own dependencies, beyond the project's
# (scripts/install-deps.sh): Debian's chromium, to render report.html headless
# (run.py --screenshot). Not needed by the build or the test suite.
set -euo pipefail
"$(dirname "$0")/../../scripts/install-deps.sh"
dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed" && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps.sh: need root or sudo to install chromium" >&2; exit 2; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
