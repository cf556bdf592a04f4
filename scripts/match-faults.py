#!/usr/bin/env python3
"""Each engine's games and faults in fastchess (or cutechess) PGN files, for the soak tally.

    scripts/match-faults.py MATCH.pgn [MORE.pgn ...]

A game counts against the side that lost it when its Termination tag is not `normal` or
`adjudication` (fastchess writes `time forfeit`, `illegal move`, `abandoned` for a crash or
a disconnect, `stalled connection` for a hang), and against no one when it has no result.
Prints, for every engine, its games and its faults by kind, and the warnings in the log
beside each file (`MATCH.log`, as scripts/match.sh writes it: fastchess warns there of
illegal PV moves and malformed info lines); exits 1 if any engine named with `--engine
NAME` has a fault, or if a log warns at all.
"""

import argparse
import collections
import os
import sys

import chess.pgn

CLEAN = {"normal", "adjudication", ""}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", action="append", default=[],
                        help="fail if this engine has a fault (repeatable)")
    args = parser.parse_args()
    games = collections.Counter()
    faults = collections.defaultdict(collections.Counter)
    unfinished = 0
    warnings = []
    for path in args.pgn:
        log = os.path.splitext(path)[0] + ".log"
        if os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as lines:
                warnings += [f"{log}: {line.strip()}" for line in lines if "warning" in line.lower()]
        with open(path, encoding="utf-8", errors="replace") as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                white, black = game.headers.get("White", "?"), game.headers.get("Black", "?")
                games[white] += 1
                games[black] += 1
                result = game.headers.get("Result", "*")
                termination = game.headers.get("Termination", "").lower()
                if result == "*":
                    unfinished += 1
                elif termination not in CLEAN:
                    loser = {"1-0": black, "0-1": white}.get(result)
                    faults[loser or "(drawn)"][termination] += 1
    for name, count in sorted(games.items()):
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(faults[name].items()))
        print(f"{name}: {count} games, faults: {kinds or 'none'}")
    if unfinished:
        print(f"{unfinished} games without a result")
    print(f"warnings in the logs: {len(warnings)}")
    for warning in warnings[:20]:
        print(f"  {warning}")
    return 1 if warnings or any(faults[name] for name in args.engine) else 0


if __name__ == "__main__":
    sys.exit(main())
