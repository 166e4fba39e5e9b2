#!/usr/bin/env bash
# Type-checks hoard-android for phones (aarch64-linux-android) on a machine without the NDK:
# cross/check.sh does it for every platform this machine cannot build for (see there).
#
# Usage: android/check.sh            cargo check -p hoard-android for the phone
#        android/check.sh --clippy   cargo clippy --all-targets -D warnings for the phone
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../cross/check.sh" android "$@"
