#!/usr/bin/env python3
"""Fits Ferrum's win-draw-loss model (src/calibration.rs) to games with Ferrum's own scores.

    python3 scripts/fit-wdl.py GAMES.pgn [MORE.pgn ...]

The games are PGN as ../shared/tools/match.py or fastchess write it: each move carries a comment
like `{+0.13/20 0.34s}`, the score of the side that moved. Every such score is paired with
the game's result and the material left (pawn 1, knight and bishop 3, rook 5, queen 9,
between 17 and 78 as the model clamps it). The model gives the side to move, at score x
in centipawns and material m,

    win = 1 / (1 + exp((a - x) / b)),  loss = 1 / (1 + exp((a + x) / b)),  draw = the rest,

with a and b cubic polynomials in t = m / 58, fitted by maximum likelihood.
Needs python-chess, numpy and scipy (pip install chess numpy scipy).
"""
import re
import sys

import chess.pgn
import numpy as np
from scipy.optimize import minimize

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
SCORE = re.compile(r"^\s*([+-]\d+\.\d+)/\d+")


def samples(paths):
    """(score of the side that moved, material after the move, that side's outcome: 1 win,
    0.5 draw, 0 loss) for every scored move."""
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.headers.get("Result"))
                if result is None:
                    continue
                board = game.board()
                for node in game.mainline():
                    mover = board.turn
                    board.push(node.move)
                    found = SCORE.match(node.comment)
                    if not found:
                        continue
                    cp = round(float(found.group(1)) * 100)
                    if abs(cp) > 1500:
                        continue
                    material = sum(
                        VALUES[p.piece_type] for p in board.piece_map().values() if p.piece_type in VALUES
                    )
                    outcome = result if mover == chess.WHITE else 1.0 - result
                    yield cp, min(max(material, 17), 78), outcome


def probabilities(params, x, t):
    a = np.polyval(params[:4], t)
    b = np.maximum(np.polyval(params[4:], t), 1.0)
    win = 1 / (1 + np.exp((a - x) / b))
    loss = 1 / (1 + np.exp((a + x) / b))
    return win, np.clip(1 - win - loss, 1e-9, 1), loss


def main():
    data = np.array(list(samples(sys.argv[1:])), dtype=float)
    if len(data) == 0:
        sys.exit("no scored moves found")
    x, t, outcome = data[:, 0], data[:, 1] / 58, data[:, 2]

    def negative_log_likelihood(params):
        win, draw, loss = probabilities(params, x, t)
        p = np.where(outcome == 1, win, np.where(outcome == 0, loss, draw))
        return -np.sum(np.log(np.clip(p, 1e-12, 1)))

    fit = minimize(negative_log_likelihood, [0, 0, 0, 200, 0, 0, 0, 60], method="Powell",
                   options={"maxiter": 100000, "xtol": 1e-4, "ftol": 1e-9})
    a, b = ", ".join(f"{c:.3f}" for c in fit.x[:4]), ", ".join(f"{c:.3f}" for c in fit.x[4:])
    print(f"{len(data)} scored moves; log-likelihood {-fit.fun:.1f}")
    print(f"a = [{a}], b = [{b}]")
    wdl = ",".join(f"{c:.3f}" for c in fit.x)
    print(f"into a network file: ferrum calibrate NET.nnue -o OUT.nnue --wdl={wdl}")
    print("calibration (score bin: moves, observed W/D/L %, predicted W/D/L %):")
    for low in range(-600, 600, 100):
        sel = (x >= low) & (x < low + 100)
        if sel.sum() < 50:
            continue
        win, draw, loss = probabilities(fit.x, x[sel], t[sel])
        obs = [np.mean(outcome[sel] == v) * 100 for v in (1, 0.5, 0)]
        print(f"  [{low:+5}, {low + 100:+5}): {sel.sum():6}  "
              f"{obs[0]:5.1f} {obs[1]:5.1f} {obs[2]:5.1f}   "
              f"{win.mean() * 100:5.1f} {draw.mean() * 100:5.1f} {loss.mean() * 100:5.1f}")


if __name__ == "__main__":
    main()
