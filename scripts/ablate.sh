#!/usr/bin/env bash
# Builds one engine per evaluation family with that family's weights set to zero and the
# others refitted without it, for ablation matches against the full evaluation:
#
#   scripts/ablate.sh DATA OUTDIR [EPOCHS] [FAMILY ...]
#
# DATA is a `ferrum datagen --format text` file; each build goes to OUTDIR/ferrum-without-FAMILY, its
# weights and the tuner's log beside it. The refit starts from the weights in the
# repository, so a short run (EPOCHS, default 100) lets the other terms take up what they
# can of the missing one. Families default to all those beyond material and placement.
set -euo pipefail
data=$(realpath "$1"); out=$(realpath -m "$2"); epochs=${3:-100}; shift $(( $# < 3 ? $# : 3 ))
families=("$@")
[ ${#families[@]} -gt 0 ] || families=(pawn-structure passed-pawns mobility pieces king-safety threats)
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
tree=$out/tree
[ -d "$tree" ] || git -C "$repo" worktree add --detach "$tree" HEAD
cargo build --release --quiet --manifest-path "$tree/Cargo.toml"
cp "$tree/target/release/ferrum" "$out/ferrum-full"
for family in "${families[@]}"; do
  "$out/ferrum-full" tune "$data" --without "$family" --epochs "$epochs" --rate 2 \
    -o "$out/params-without-$family.rs" > "$out/tune-without-$family.log"
  cp "$out/params-without-$family.rs" "$tree/src/eval/params.rs"
  cargo build --release --quiet --manifest-path "$tree/Cargo.toml"
  cp "$tree/target/release/ferrum" "$out/ferrum-without-$family"
  git -C "$tree" checkout --quiet src/eval/params.rs
  echo "$family: $(grep -E '^K |^epoch' "$out/tune-without-$family.log" | sed -n '1p;$p' | tr '\n' ' ')"
done
