#!/usr/bin/env bash
# Links Hoard for Windows (x86_64-pc-windows-gnu) with MinGW-w64 and runs it under Wine, on
# this Linux machine: the rules and net test binaries, and hoard.exe playing whole games.
#
# Everything is built as a Windows developer's MinGW build would be: Rust links with
# x86_64-w64-mingw32-gcc, and the C build scripts (ring under iroh's QUIC, blake3's SIMD)
# compile with it too. cross/windows/run.sh is cargo's runner for the target: it runs each
# program under Wine in a scratch Windows (target/wine-prefix), where the data folder is
# %APPDATA%\Hoard\hoard\data as on a real one.
#
# Usage: cross/windows.sh [tests|games|ci|all]
#   tests   cargo test --target x86_64-pc-windows-gnu -p hoard-rules -p hoard-net, under
#           Wine (with the full simulator runs, as natively)
#   games   hoard.exe host --offline with bots, to audit=verified; then Freeloader for
#           three (a bot beside the host) between two devices over loopback, both ending
#           verified with the same result: hoard.exe hosting (its data in %APPDATA%) and
#           hoard.exe joining, then native Linux hoard hosting and hoard.exe joining (the
#           same protocol on two platforms)
#   ci      what CI runs: the rules tests and the game between two hoard.exe (not the
#           net crate's tests, which play the same code natively in the default run)
#   all     tests, then games (the default)
set -euo pipefail

TARGET=x86_64-pc-windows-gnu
WINE="${WINE:-/usr/lib/wine/wine64}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/.."

what="${1:-all}"
case "$what" in
    tests | games | ci | all) ;;
    -h | --help)
        sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "windows.sh: no '$what' (tests, games, ci or all)" >&2
        exit 2
        ;;
esac

missing=()
command -v cargo >/dev/null 2>&1 || missing+=("Rust (cargo): https://rustup.rs")
rustup target list --installed 2>/dev/null | grep -qx "$TARGET" ||
    missing+=("the Windows target: rustup target add $TARGET")
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 ||
    missing+=("MinGW-w64's gcc: apt-get install gcc-mingw-w64-x86-64")
[[ -x "$WINE" ]] || missing+=("Wine ($WINE): apt-get install wine64")
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "windows.sh: cannot build and run for Windows yet. Missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi

cd "$ROOT"
out="$ROOT/target/$TARGET"
mkdir -p "$out/wine"
dll="$out/wine/bcryptprimitives.dll"
src="$HERE/windows/bcryptprimitives.c"
if [[ ! "$dll" -nt "$src" ]]; then
    x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" "$src" "$HERE/windows/bcryptprimitives.def" -ladvapi32
fi

export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
export AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$HERE/windows/run.sh"
export HOARD_WINE_DLL="$dll"
export WINEPREFIX="${WINEPREFIX:-$ROOT/target/wine-prefix}"
export WINE

run_tests() {
    echo "== windows: rules and net tests under Wine"
    cargo test --target "$TARGET" -p hoard-rules -p hoard-net "$@"
}

run_ci_tests() {
    # Every rules test: the same bytes from the same inputs on Windows. The net crate's
    # tests play the same pure-Rust protocol core that the default run plays natively, and
    # each links a Windows binary of its own (a quarter of an hour of a CI run); the two
    # hoard.exe below play that core over Windows' own sockets and files instead.
    # `cross/windows.sh tests` runs them all.
    cargo test -p hoard-rules --lib --test '*' --target "$TARGET"
}

# Scratch folders for the games, removed when the script ends.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/hoard-windows.XXXXXX")"

# One Wine server for the whole run. Left to itself, Wine starts a server with a program
# and stops it a moment after the last one exits; a program starting in that moment loses
# its connection ("wine client error:0: recvmsg: Connection reset by peer"), which once
# failed a test binary in CI. A persistent server closes that window; it stops when this
# script ends. (It needs the prefix's folder; Wine fills the folder on first use.)
WINESERVER="${WINESERVER:-$(dirname "$WINE")/wineserver}"
mkdir -p "$WINEPREFIX"
"$WINESERVER" -p || true
trap 'rm -rf "$scratch"; "$WINESERVER" -k 2>/dev/null || true' EXIT

# The last RESULT line a player printed, or nothing.
result_of() { sed -n 's/^RESULT //p' "$1" | tail -1; }

# `state` and `step` of a RESULT line, which two players of one game must share.
game_of() { tr ' ' '\n' <<<"$1" | grep -E '^(session|step|state|winners)=' | tr '\n' ' '; }

# Checks that a player's game ended verified; prints its RESULT line.
verified() {
    local name="$1" log="$2" line
    line="$(result_of "$log")"
    if [[ "$line" != *"audit=verified "* ]]; then
        echo "windows.sh: $name did not end verified:" >&2
        tail -20 "$log" "$log.err" >&2
        return 1
    fi
    echo "$name: RESULT $line"
}

# Plays one game between a host and a guest over loopback: `two_players NAME HOST GUEST
# [HOST_DATA]`, where HOST and GUEST are the commands (a program and its launcher) for each;
# the host keeps its data in HOST_DATA (by default a scratch folder; "default" for the
# system's own data folder).
two_players() {
    local name="$1" host="$2" guest="$3" dir="$scratch/$1" ticket="" host_data=()
    mkdir -p "$dir"
    [[ "${4:-}" == default ]] || host_data=(--data-dir "$dir/host")
    # shellcheck disable=SC2086 # the commands are words on purpose
    $host host --game freeloader --seats 3 --bots 1 --loopback --timeout 600 \
        --name Host "${host_data[@]}" >"$dir/host.log" 2>"$dir/host.log.err" &
    local host_pid=$!
    for _ in $(seq 600); do
        ticket="$(sed -n 's/^TICKET //p' "$dir/host.log" | head -1)"
        [[ -n "$ticket" ]] && break
        kill -0 "$host_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z "$ticket" ]]; then
        echo "windows.sh: $name: the host printed no join code" >&2
        cat "$dir/host.log.err" >&2
        kill "$host_pid" 2>/dev/null || true
        return 1
    fi
    # shellcheck disable=SC2086
    $guest join "$ticket" --bot --loopback --timeout 600 --name Guest --data-dir "$dir/guest" \
        >"$dir/guest.log" 2>"$dir/guest.log.err" &
    local guest_pid=$!
    wait "$host_pid" || true
    wait "$guest_pid" || true
    verified "$name, the host" "$dir/host.log"
    verified "$name, the guest" "$dir/guest.log"
    local h g
    h="$(game_of "$(result_of "$dir/host.log")")"
    g="$(game_of "$(result_of "$dir/guest.log")")"
    if [[ "$h" != "$g" ]]; then
        echo "windows.sh: $name: the two players disagree: host $h, guest $g" >&2
        return 1
    fi
}

exe="$out/debug/hoard.exe"
wine_exe="$HERE/windows/run.sh $exe"
appdata="$WINEPREFIX/drive_c/users/$(id -un)/AppData/Roaming/Hoard"

build_exe() {
    echo "== windows: hoard.exe"
    cargo build --target "$TARGET" -p hoard-app --bin hoard
    ls -l "$exe"
}

# hoard.exe kept its identity where Windows keeps a user's program data.
kept_in_appdata() {
    if [[ ! -f "$appdata/hoard/data/identity.key" ]]; then
        echo "windows.sh: hoard.exe kept no identity in %APPDATA%\\Hoard\\hoard\\data" >&2
        return 1
    fi
    echo "hoard.exe kept its data in %APPDATA%\\Hoard\\hoard\\data:" \
        "$(find "$appdata" -type f | wc -l) files"
}

offline_game() {
    echo "== windows: hoard.exe host --offline, against bots"
    # shellcheck disable=SC2086
    $wine_exe host --game spree --bots 3 --offline --timeout 600 --data-dir "$scratch/offline" \
        >"$scratch/offline.log" 2>"$scratch/offline.log.err" || true
    verified "hoard.exe offline" "$scratch/offline.log"
}

wine_pair() {
    echo "== windows: hoard.exe hosting, hoard.exe joining, over loopback"
    # The host keeps its data in %APPDATA%, as a player's would be. A game an earlier run
    # left unfinished there would be resumed, so it goes first.
    rm -rf "$appdata"
    two_players wine-wine "$wine_exe" "$wine_exe" default
    kept_in_appdata
}

mixed_pair() {
    echo "== windows: native Linux hoard hosting, hoard.exe joining, over loopback"
    cargo build -p hoard-app --bin hoard
    two_players linux-wine "$ROOT/target/debug/hoard" "$wine_exe"
}

case "$what" in
    tests) run_tests ;;
    games)
        build_exe
        offline_game
        wine_pair
        mixed_pair
        ;;
    ci)
        run_ci_tests
        build_exe
        wine_pair
        ;;
    all)
        run_tests
        build_exe
        offline_game
        wine_pair
        mixed_pair
        ;;
esac
