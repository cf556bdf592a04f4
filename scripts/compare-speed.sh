#!/usr/bin/env bash
# Compares search speed of engine builds, interleaving runs so that machine noise hits all
# alike: bench (nodes, seconds) and a 3-second search of the start position (nps, depth).
# Prints the minimum and median of each measure.   scripts/compare-speed.sh A B [rounds]
set -euo pipefail
rounds=${ROUNDS:-5}
tmp=$(mktemp -d)
for _ in $(seq "$rounds"); do
    for exe in "$@"; do
        id=$(basename "$exe")
        start=$(date +%s.%N)
        nodes=$("$exe" bench | tail -n 1 | cut -d' ' -f1)
        end=$(date +%s.%N)
        echo "$nodes $(echo "$end - $start" | bc -l)" >> "$tmp/$id.bench"
        printf 'position startpos\ngo movetime 3000\n' | "$exe" | grep -v bound | tail -n 2 | head -n 1 \
            | awk '{for (i = 1; i < NF; i++) { if ($i == "nps") n = $(i+1); if ($i == "depth") d = $(i+1) } print n, d}' >> "$tmp/$id.start"
    done
done
stats() { sort -n | awk '{a[NR] = $1} END {printf "min %.3g median %.3g", a[1], a[int((NR + 1) / 2)]}'; }
printf '%-28s %-12s %-34s %-34s\n' build bench-nodes "bench seconds" "start position nps"
for exe in "$@"; do
    id=$(basename "$exe")
    printf '%-28s %-12s %-34s %-34s\n' "$id" "$(head -n 1 "$tmp/$id.bench" | cut -d' ' -f1)" \
        "$(cut -d' ' -f2 "$tmp/$id.bench" | stats)" "$(cut -d' ' -f1 "$tmp/$id.start" | stats)"
done
rm -r "$tmp"
