#!/usr/bin/env bash
# Writes the seed corpus, fuzz/corpus/<target>/seed-NN, for every fuzz target (or the ones
# named): each target's binary, run with HOARD_FUZZ_SEEDS set, writes real encodings made
# by the same builders as net/tests/decoders.rs (hoard_fuzz::seeds), runs each through its
# decoder once, and exits. Needs a nightly toolchain and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")"
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build -a
host=$(rustc -vV | sed -n "s/^host: //p")
for t in "${targets[@]}"; do
    HOARD_FUZZ_SEEDS="corpus/$t" "target/$host/release/$t"
done
