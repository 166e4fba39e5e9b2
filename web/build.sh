#!/usr/bin/env bash
# Builds the page a device at the table serves to browser seats: the app for
# wasm32-unknown-unknown (hoard-web's cdylib, with the `page` profile: release, optimised for
# size), its JavaScript glue from wasm-bindgen, and index.html, into web/dist (or the folder
# given).
#
# Needs: the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown), clang
# (ring's C for wasm32) and wasm-bindgen-cli of the same version as the wasm-bindgen crate in
# Cargo.lock (cargo install wasm-bindgen-cli --version <it>).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-$HERE/dist}"
cd "$HERE/.."

want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have" != "$want" ]]; then
    echo "build.sh: wasm-bindgen $want is needed (found: ${have:-none}):" >&2
    echo "  cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi

export CC_wasm32_unknown_unknown="${CC_wasm32_unknown_unknown:-clang}"
export AR_wasm32_unknown_unknown="${AR_wasm32_unknown_unknown:-llvm-ar}"
cargo build -p hoard-web --profile page --target wasm32-unknown-unknown
mkdir -p "$OUT"
wasm-bindgen --target web --no-typescript --out-dir "$OUT" \
    "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/page/hoard_web.wasm"
cp web/index.html "$OUT/index.html"
ls -l "$OUT"
