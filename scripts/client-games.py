#!/usr/bin/env python3
"""Plays complete games between two instances of the engine through python-chess, a real
client of both protocols: over UCI and over XBoard, with pondering on and off, with clock
and fixed-time limits. python-chess rejects any illegal move; every game must end by the
rules or the move limit.
    scripts/client-games.py target/release/ferrum [games per protocol]"""
import sys

import chess
import chess.engine


def play_game(white, black, limit, ponder, max_plies=400):
    board = chess.Board()
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engines[board.turn].play(board, limit, ponder=ponder)
        if result.resigned:
            return board, "resignation"
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"illegal or missing move {result.move} in {board.fen()}")
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return board, outcome.termination.name if outcome else "move limit"


def run(open_engine, label, games):
    limits = [
        chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.02, black_inc=0.02),
        chess.engine.Limit(time=0.02),
    ]
    white, black = open_engine(), open_engine()
    try:
        for engine in (white, black):
            engine.configure({"Hash": 16} if label == "uci" else {})
        for game in range(games):
            limit, ponder = limits[game % 2], game % 4 < 2
            board, ending = play_game(white, black, limit, ponder)
            print(f"{label} game {game + 1}: ended by {ending} after {board.ply()} plies"
                  f" (ponder {'on' if ponder else 'off'}, {limit})")
    finally:
        white.quit()
        black.quit()


def main():
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    run(lambda: chess.engine.SimpleEngine.popen_uci([path, "uci"]), "uci", games)
    run(lambda: chess.engine.SimpleEngine.popen_xboard([path, "xboard"]), "xboard", games)
    print(f"{2 * games} games, every move legal")


if __name__ == "__main__":
    main()
