#!/usr/bin/env bash
# Type-checks hoard-android for phones (aarch64-linux-android) on a machine without the NDK.
#
# `cargo check` turns no Rust into machine code, but build scripts still compile C: ring (under
# iroh's QUIC) and blake3's NEON code. Without the NDK, the host's clang with 64-bit ARM C headers
# stands in for the NDK's compiler (Debian: clang, llvm, libc6-dev-arm64-cross). Nothing is
# linked, so those glibc headers never meet Android's libc; building the APK still needs the NDK
# (see build-apk.sh). A C compiler already set in CC_aarch64_linux_android is used as it is.
#
# Usage: android/check.sh            cargo check -p hoard-android for the phone
#        android/check.sh --clippy   cargo clippy --all-targets -D warnings for the phone
set -euo pipefail

TARGET=aarch64-linux-android
HEADERS=/usr/aarch64-linux-gnu/include

mode=check
case "${1:-}" in
    "") ;;
    --clippy) mode=clippy ;;
    -h | --help)
        sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "check.sh: unknown option '$1' (only --clippy)" >&2
        exit 2
        ;;
esac

missing=()
command -v cargo >/dev/null 2>&1 || missing+=("Rust (cargo): https://rustup.rs")
if command -v rustup >/dev/null 2>&1; then
    rustup target list --installed 2>/dev/null | grep -qx "$TARGET" ||
        missing+=("the phone target: rustup target add $TARGET")
else
    missing+=("rustup (to add the phone target): https://rustup.rs")
fi
if [[ -z "${CC_aarch64_linux_android:-}" ]]; then
    command -v clang >/dev/null 2>&1 || missing+=("clang: apt-get install clang")
    command -v llvm-ar >/dev/null 2>&1 || missing+=("llvm-ar: apt-get install llvm")
    [[ -f "$HEADERS/assert.h" ]] ||
        missing+=("64-bit ARM C headers in $HEADERS: apt-get install libc6-dev-arm64-cross")
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "check.sh: cannot type-check for the phone yet. Missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi

if [[ -z "${CC_aarch64_linux_android:-}" ]]; then
    export CC_aarch64_linux_android=clang
    export AR_aarch64_linux_android=llvm-ar
    # -nostdlibinc: leave out the host's x86-64 headers; clang's own (stdint.h, arm_neon.h)
    # stay, and the ARM glibc headers supply the rest (assert.h, string.h).
    export CFLAGS_aarch64_linux_android="-nostdlibinc -isystem $HEADERS"
fi

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ $mode == clippy ]]; then
    cargo clippy -p hoard-android --target "$TARGET" --all-targets -- -D warnings
else
    cargo check -p hoard-android --target "$TARGET"
fi
