#!/usr/bin/env bash
# Nodes per second from the start position over UCI, 3-second searches, for each table size
# in MiB, rounds interleaved:   scripts/nps.sh EXE ["1 16 64"] [ROUNDS]
exe=$1; hashes=${2:-16}; rounds=${3:-3}
for r in $(seq $rounds); do for h in $hashes; do
  n=$( (printf 'uci\nsetoption name Hash value %s\nisready\nposition startpos\ngo movetime 3000\n' $h; sleep 3.3; echo quit) | "$exe" uci | grep -v bound | grep " nps " | tail -1 | sed 's/.* nps \([0-9]*\).*/\1/')
  echo "$h $n"
done; done | sort -n -k1 -k2 | awk '{a[$1]=a[$1]" "$2} END {for (h in a) print "hash", h, ":", a[h]}'
