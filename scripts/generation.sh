#!/usr/bin/env bash
# Trains the next network generation as docs/nnue.md ("Networks") describes: converts each
# set's shards to bulletformat, shuffles them (with the previous generation's file when it is
# still on the machine), fine-tunes the previous network on the result, and measures the old
# and the new network on games kept apart. Kept here so that the recipe outlives the machine
# that holds the data.
#
#   scripts/generation.sh FERRUM PREV.nnue NAME SEED INPUT... -- VALID.bf...
#
# FERRUM   the binary (a native build of the commit that plays the sets)
# PREV     the network to fine-tune (the one built in: src/nnue/default.nnue)
# NAME     writes train/NAME.bf, train/NAME.nnue (a checkpoint beside it, and each epoch's
#          network as train/NAME-eN.nnue), train/NAME-losses.txt
# SEED     the shuffle's seed
# INPUT    shard directories (converted to DIR.bf beside them) or .bf files
# VALID    bulletformat files of games none of the networks was trained on
#
# RATE, EPOCHS and STEP override the fine-tuning recipe (0.0001, 8, 4). The losses are listed
# for the previous network and each epoch's, so that a small file's best epoch shows (session
# 43's: the first). Run it in the data folder with datagen stopped: training and datagen
# compete for the same cores.
set -euo pipefail

if [ $# -lt 6 ]; then
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
ferrum=$1 prev=$2 name=$3 seed=$4
shift 4

inputs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    inputs+=("$1")
    shift
done
[ "${1:-}" = "--" ] || { echo "generation.sh: no '--' before the validation files" >&2; exit 2; }
shift
valids=("$@")
[ ${#valids[@]} -gt 0 ] || { echo "generation.sh: no validation files" >&2; exit 2; }

mkdir -p train
files=()
for input in "${inputs[@]}"; do
    if [ -d "$input" ]; then
        "$ferrum" data convert "$input" -o "${input%/}.bf"
        files+=("${input%/}.bf")
    else
        files+=("$input")
    fi
done

"$ferrum" data shuffle "${files[@]}" -o "train/$name.bf" --seed "$seed"

validation=()
for v in "${valids[@]}"; do
    validation+=(--validation-file "$v")
done
"$ferrum" train "train/$name.bf" -o "train/$name.nnue" --init "$prev" \
    --rate "${RATE:-0.0001}" --epochs "${EPOCHS:-8}" --step "${STEP:-4}" \
    "${validation[@]}" --threads 2 --seed 1 --keep-epochs

networks=(--network "$prev")
for ((e = 1; e <= ${EPOCHS:-8}; e++)); do
    networks+=(--network "train/$name-e$e.nnue")
done

for v in "${valids[@]}"; do
    echo "$v"
    "$ferrum" data loss "$v" "${networks[@]}"
done | tee "train/$name-losses.txt"
