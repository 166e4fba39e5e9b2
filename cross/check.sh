#!/usr/bin/env bash
# Type-checks and lints Hoard for the platforms this Linux machine cannot build for:
# phones (aarch64-linux-android), Windows (x86_64-pc-windows-gnu), macOS
# (aarch64-apple-darwin) and a browser (wasm32-unknown-unknown).
#
# `cargo check` turns no Rust into machine code, but build scripts still compile C: ring
# (under iroh's QUIC) and blake3's SIMD code. Without each platform's own compiler and
# system headers (the Android NDK, Apple's SDK), the host's clang stands in, with headers
# that are close enough for those few C files:
#   android  the 64-bit ARM glibc headers (Debian: libc6-dev-arm64-cross);
#   windows  MinGW-w64's own gcc when it is there (Debian: gcc-mingw-w64-x86-64, which
#            cross/windows.sh links with), else clang with MinGW-w64's headers
#            (Debian: mingw-w64-x86-64-dev);
#   macos    the 64-bit ARM glibc headers, plus cross/apple-headers/TargetConditionals.h,
#            a few lines standing in for the SDK header ring asks which Apple system it
#            builds for, and with clang's Apple-only `__nonnull` keyword macro undefined,
#            which glibc's headers use as a name;
#   browser  none: ring's C for wasm32 needs no C library, and clang compiles it.
# Nothing is linked, so those headers never meet the platform's real C library; a C compiler
# already set in CC_<target> is used as it is.
#
# Usage: cross/check.sh android|windows|macos|browser [--clippy]
#   android            cargo check -p hoard-android
#   android --clippy   cargo clippy -p hoard-android --all-targets -D warnings
#   windows            cargo clippy -D warnings on the app and the crates under it
#                      (rules, net, app: everything a desktop build compiles), with
#                      the rules and net tests, which cross/windows.sh runs under Wine
#   macos              the same, without the tests
#   browser            cargo clippy -D warnings on everything the page builds (rules,
#                      net with its device machine and browser driver, app, web)
set -euo pipefail

ARM_HEADERS=/usr/aarch64-linux-gnu/include
MINGW_HEADERS=/usr/x86_64-w64-mingw32/include
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

platform="${1:-}"
mode="${2:-}"
case "$platform" in
    android) target=aarch64-linux-android headers=$ARM_HEADERS package="hoard-android" ;;
    windows) target=x86_64-pc-windows-gnu headers=$MINGW_HEADERS package="" ;;
    macos) target=aarch64-apple-darwin headers=$ARM_HEADERS package="" ;;
    browser) target=wasm32-unknown-unknown headers="" package="" ;;
    -h | --help | "")
        sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
        [[ -n "$platform" ]] && exit 0 || exit 2
        ;;
    *)
        echo "check.sh: no platform '$platform' (android, windows, macos or browser)" >&2
        exit 2
        ;;
esac
case "$mode" in
    "" | --clippy) ;;
    *)
        echo "check.sh: unknown option '$mode' (only --clippy)" >&2
        exit 2
        ;;
esac

# cc's variable names use the target with underscores.
var="${target//-/_}"
cc_var="CC_$var"

missing=()
command -v cargo >/dev/null 2>&1 || missing+=("Rust (cargo): https://rustup.rs")
if command -v rustup >/dev/null 2>&1; then
    rustup target list --installed 2>/dev/null | grep -qx "$target" ||
        missing+=("the $platform target: rustup target add $target")
else
    missing+=("rustup (to add the $platform target): https://rustup.rs")
fi
# Windows has a real compiler on Debian: MinGW-w64's gcc, which cross/windows.sh links
# with. Checking with it too keeps one build of ring's and blake3's C for both.
if [[ $platform == windows && -z "${!cc_var:-}" ]] && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    export "$cc_var=x86_64-w64-mingw32-gcc"
fi
if [[ -z "${!cc_var:-}" ]]; then
    command -v clang >/dev/null 2>&1 || missing+=("clang: apt-get install clang")
    command -v llvm-ar >/dev/null 2>&1 || missing+=("llvm-ar: apt-get install llvm")
    case "$platform" in
        windows) pkg=mingw-w64-x86-64-dev ;;
        *) pkg=libc6-dev-arm64-cross ;;
    esac
    [[ -z "$headers" || -f "$headers/assert.h" ]] ||
        missing+=("C headers in $headers: apt-get install $pkg")
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "check.sh: cannot type-check for $platform yet. Missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi

if [[ -z "${!cc_var:-}" ]]; then
    export "CC_$var=clang"
    export "AR_$var=llvm-ar"
    case "$platform" in
        # clang finds MinGW's headers by itself for a windows-gnu target.
        windows) ;;
        # -nostdlibinc: leave out the host's x86-64 headers; clang's own (stdint.h,
        # arm_neon.h) stay, and the ARM glibc headers supply the rest.
        android) export "CFLAGS_$var=-nostdlibinc -isystem $headers" ;;
        macos) export "CFLAGS_$var=-nostdlibinc -isystem $headers -isystem $HERE/apple-headers -U__nonnull" ;;
        browser) ;;
    esac
fi

cd "$HERE/.."
if [[ -n "$package" ]]; then
    if [[ $mode == --clippy ]]; then
        cargo clippy -p "$package" --target "$target" --all-targets -- -D warnings
    else
        cargo check -p "$package" --target "$target"
    fi
elif [[ $platform == browser ]]; then
    cargo clippy -p hoard-rules -p hoard-net -p hoard-app -p hoard-web --target "$target" -- -D warnings
elif [[ $platform == windows ]]; then
    cargo clippy -p hoard-rules -p hoard-net --target "$target" --all-targets -- -D warnings
    cargo clippy -p hoard-app --target "$target" -- -D warnings
else
    cargo clippy -p hoard-rules -p hoard-net -p hoard-app --target "$target" -- -D warnings
fi
