#!/usr/bin/env python3
"""Issue 15's conversion floor: from random won positions of KQvK, KRvK, KQvKR and KPvK,
Ferrum plays both sides (each with the tables) at a fixed time a move; every game must end
in a win for the side that was winning, before the fifty-move rule or a repetition can
draw it.

    python3 scripts/tb-conversion.py ./target/release/ferrum --syzygy tests/data/syzygy \
        [--positions 100] [--movetime 0.1] [--seed 1] [--materials KQvK,KRvK,KQvKR,KPvK]

The positions are checked with python-chess's own Syzygy prober: legal, the stronger side
to move, a win that the fifty-move rule allows (WDL 2). Prints each failure with its
moves, a line per material and a summary; exits non-zero on any failure.
"""

import argparse
import random
import sys

import chess
import chess.engine
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def random_won_position(material, tables, rng):
    """A legal position of `material` (White's pieces first) that White, to move, wins
    under the fifty-move rule."""
    strong, weak = material.split("v")
    pieces = [(c, chess.WHITE) for c in strong] + [(c, chess.BLACK) for c in weak]
    while True:
        board = chess.Board(None)
        for (letter, color), square in zip(pieces, rng.sample(chess.SQUARES, len(pieces))):
            board.set_piece_at(square, chess.Piece(PIECES[letter], color))
        board.turn = chess.WHITE
        if board.is_valid() and tables.probe_wdl(board) == 2:
            return board


def play(board, engines, movetime):
    """Plays the game out; returns (result, reason, moves)."""
    moves = []
    while not board.is_game_over(claim_draw=True) and len(moves) < 400:
        engine = engines[board.turn]
        move = engine.play(board, chess.engine.Limit(time=movetime)).move
        moves.append(board.san(move))
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "*", "400 plies", moves
    return outcome.result(), outcome.termination.name, moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--syzygy", required=True)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--materials", default="KQvK,KRvK,KQvKR,KPvK")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    tables = chess.syzygy.open_tablebase(args.syzygy)
    engines = {}
    for color in (chess.WHITE, chess.BLACK):
        engines[color] = chess.engine.SimpleEngine.popen_uci([args.engine])
        engines[color].configure({"SyzygyPath": args.syzygy})
    failures = 0
    try:
        for material in args.materials.split(","):
            won, plies = 0, []
            for n in range(args.positions):
                start = random_won_position(material, tables, rng)
                fen = start.fen()
                for engine in engines.values():
                    engine.configure({"Clear Hash": None})
                result, reason, moves = play(start.copy(), engines, args.movetime)
                if result == "1-0":
                    won += 1
                    plies.append(len(moves))
                else:
                    failures += 1
                    print(f"FAIL {material} {n + 1}: {fen}: {result} ({reason}) "
                          f"{' '.join(moves)}", flush=True)
            mean = sum(plies) / max(len(plies), 1)
            print(f"{material}: {won}/{args.positions} won, {mean:.1f} plies on average, "
                  f"longest {max(plies, default=0)}", flush=True)
    finally:
        for engine in engines.values():
            engine.quit()
        tables.close()
    print("all won" if failures == 0 else f"{failures} not won")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
