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
exec "${WINE:-/usr/lib/wine/wine64}" "$program" "$@"
