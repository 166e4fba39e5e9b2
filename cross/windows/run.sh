#!/usr/bin/env bash
# Runs a Windows program (x86_64-pc-windows-gnu) under Wine, headless: cargo's runner for
# that target (CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER), set by cross/windows.sh.
#
# Wine keeps its Windows (registry, C: drive, %APPDATA%) in WINEPREFIX; one scratch prefix
# under the target folder serves every run unless WINEPREFIX is already set. Wine 8 lacks
# bcryptprimitives.dll, which Rust's standard library loads at start, so the small stand-in
# built from bcryptprimitives.c is put beside the program first (see that file).
#
# Usage: run.sh program.exe [arguments...]
set -euo pipefail

program="$1"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dll="${HOARD_WINE_DLL:?set by cross/windows.sh: the built bcryptprimitives.dll}"
beside="$(dirname "$program")/bcryptprimitives.dll"
[[ "$beside" -nt "$dll" ]] || cp "$dll" "$beside"

export WINEPREFIX="${WINEPREFIX:-$here/../../target/wine-prefix}"
export WINEDEBUG="${WINEDEBUG:--all}"
# No display: Wine must not try to open windows or ask to install Mono or Gecko.
export DISPLAY=""
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
wine="${WINE:-/usr/lib/wine/wine64}"

# A program that lost Wine's server ("wine client error:0: recvmsg: Connection reset by
# peer") did not fail: Wine did. It is run once more; any other failure is the program's.
err="$(mktemp "${TMPDIR:-/tmp}/hoard-wine.XXXXXX")"
trap 'rm -f "$err"' EXIT
# (Its errors are shown when it ends.)
status=0
"$wine" "$program" "$@" 2>"$err" || status=$?
cat "$err" >&2
if [[ $status -ne 0 ]] && grep -q "^wine client error" "$err"; then
    echo "run.sh: Wine lost its server; running $(basename "$program") again" >&2
    status=0
    "$wine" "$program" "$@" || status=$?
fi
exit "$status"
