#!/usr/bin/env python3
"""The pentanomial counts of one engine in a fastchess PGN whose openings are played in
pairs (`-repeat`): the games of a round, or failing that of one start position, paired.

    scripts/pgn-pentanomial.py MATCH.pgn ENGINE   # then scripts/pentanomial.py P0,P1,P2,P3,P4

For when a match's log, which prints `Ptnml(0-2)`, is lost.
"""
import collections
import sys

import chess.pgn

path, name = sys.argv[1], sys.argv[2]
pairs = collections.defaultdict(list)
with open(path, encoding="utf-8", errors="replace") as pgn:
    while (game := chess.pgn.read_game(pgn)) is not None:
        result = game.headers.get("Result")
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        white = game.headers.get("White") == name
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        key = (game.headers.get("Round"), game.headers.get("FEN"))
        pairs[key].append(points if white else 1.0 - points)
counts = [0] * 5
unpaired = 0
for scores in pairs.values():
    if len(scores) == 2:
        counts[int(2 * sum(scores))] += 1
    else:
        unpaired += len(scores)
print(",".join(map(str, counts)) + (f"  ({unpaired} games unpaired)" if unpaired else ""))
