#!/usr/bin/env python3
"""Each engine's clock at the end of the games of a fastchess or cutechess PGN.

    scripts/clock-left.py MATCH.pgn [MORE.pgn ...]

The time a move took is read from its comment (`{+0.31/14 0.412s}`), the base and increment
from the TimeControl tag (`10+0.1`). For every engine it prints the games, the median and
quartiles of its clock at the end of a game (the base, plus the increments received, minus
the time spent: the time it left unused), the mean time a move over the first 40 plies and
the losses on time. A game without move times is skipped and counted.
"""

import re
import statistics
import sys

import chess.pgn

MOVE_TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def time_control(tag):
    """(base, increment) in seconds from a `40/60+0.6` or `10+0.1` tag; None if untimed."""
    match = re.fullmatch(r"(?:\d+/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", tag or "")
    if not match:
        return None
    return float(match.group(1)), float(match.group(2) or 0)


def main(paths):
    left = {}
    opening_times = {}
    time_losses = {}
    skipped = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                control = time_control(game.headers.get("TimeControl"))
                names = {chess.WHITE: game.headers.get("White", "?"),
                         chess.BLACK: game.headers.get("Black", "?")}
                if control is None:
                    skipped += 1
                    continue
                base, inc = control
                spent = {chess.WHITE: 0.0, chess.BLACK: 0.0}
                moves = {chess.WHITE: 0, chess.BLACK: 0}
                timed = True
                for ply, node in enumerate(game.mainline()):
                    side = not node.turn()  # the side that made the move
                    found = MOVE_TIME.findall(node.comment)
                    if not found:
                        timed = False
                        break
                    spent[side] += float(found[-1])
                    moves[side] += 1
                    if ply < 40:
                        opening_times.setdefault(names[side], []).append(float(found[-1]))
                if not timed or not (moves[chess.WHITE] or moves[chess.BLACK]):
                    skipped += 1
                    continue
                for side in (chess.WHITE, chess.BLACK):
                    left.setdefault(names[side], []).append(
                        base + inc * moves[side] - spent[side])
                termination = game.headers.get("Termination", "")
                if "time" in termination.lower():
                    loser = names[chess.WHITE] if game.headers.get("Result") == "0-1" \
                        else names[chess.BLACK]
                    time_losses[loser] = time_losses.get(loser, 0) + 1
    print(f"{'engine':<24} {'games':>6} {'median left':>12} {'quartiles':>16} "
          f"{'s/move plies 1-40':>18} {'time losses':>12}")
    for name in sorted(left):
        values = sorted(left[name])
        quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        opening = statistics.mean(opening_times.get(name, [0.0]))
        print(f"{name:<24} {len(values):>6} {statistics.median(values):>11.2f}s "
              f"{f'{quartiles[0]:.2f}-{quartiles[2]:.2f}s':>16} {opening:>17.3f}s "
              f"{time_losses.get(name, 0):>12}")
    if skipped:
        print(f"{skipped} games without a time control or move times skipped")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1:])
