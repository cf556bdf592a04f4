#!/usr/bin/env bash
# Times Ferrum's perft against Stockfish's `go perft` in one run on one machine, both single
# threaded without hashing, and prints the speed ratio. Needs Debian's `stockfish` package.
#   scripts/perft-vs-stockfish.sh [ferrum binary] [rounds]
set -euo pipefail
ferrum=${1:-target/release/ferrum}
rounds=${2:-5}
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Best of `rounds` wall-clock times in seconds for one command.
best_time() {
    local best=999999
    for _ in $(seq "$rounds"); do
        local start end
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        best=$(echo "t = $end - $start; if (t < $best) t else $best" | bc -l)
    done
    printf '%.3f' "$best"
}

sf_perft() { printf 'position %s\ngo perft %s\nquit\n' "$1" "$2" | "$stockfish" | grep -q "Nodes searched"; }
sf_startup() { printf 'isready\nquit\n' | "$stockfish" | grep -q readyok; }

# Stockfish spends time at start-up (loading its network) that is not perft: subtract it.
startup=$(best_time sf_startup)
echo "stockfish start-up: ${startup}s (subtracted)"

printf '%-22s %12s %10s %10s %8s\n' position leaves stockfish ferrum ratio
for case in "startpos|6|119060324|" "kiwipete|5|193690690|$kiwipete"; do
    IFS='|' read -r name depth leaves fen <<< "$case"
    if [ -z "$fen" ]; then sf_pos="startpos"; ferrum_args=(perft "$depth")
    else sf_pos="fen $fen"; ferrum_args=(perft "$depth" --fen "$fen"); fi
    "$ferrum" "${ferrum_args[@]}" | grep -q "nodes $leaves " || { echo "ferrum: wrong count for $name"; exit 1; }
    sf=$(printf "%.3f" "$(echo "$(best_time sf_perft "$sf_pos" "$depth") - $startup" | bc -l)")
    fe=$(best_time "$ferrum" "${ferrum_args[@]}")
    printf '%-22s %12s %9ss %9ss %7.2fx\n' "$name D$depth" "$leaves" "$sf" "$fe" "$(echo "$sf / $fe" | bc -l)"
done
