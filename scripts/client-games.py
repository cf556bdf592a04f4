#!/usr/bin/env python3
"""Plays complete games between two instances of the engine through python-chess, a real
UCI client, with pondering on and off and with clock and fixed-time limits. python-chess
rejects any illegal move; the script also checks that every game ends by the rules.
    scripts/client-games.py target/release/ferrum [games]"""
import sys

import chess
import chess.engine


def play_game(white, black, limit, ponder, max_plies=400):
    board = chess.Board()
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engines[board.turn].play(board, limit, ponder=ponder)
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"illegal or missing move {result.move} in {board.fen()}")
        board.push(result.move)
    return board


def main():
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    limits = [
        chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.02, black_inc=0.02),
        chess.engine.Limit(time=0.02),
    ]
    white = chess.engine.SimpleEngine.popen_uci(path)
    black = chess.engine.SimpleEngine.popen_uci(path)
    try:
        for engine in (white, black):
            engine.configure({"Hash": 16})
        for game in range(games):
            limit, ponder = limits[game % 2], game % 4 < 2
            board = play_game(white, black, limit, ponder)
            outcome = board.outcome(claim_draw=True)
            ending = outcome.termination.name if outcome else "move limit"
            print(f"game {game + 1}: {board.result(claim_draw=True)} by {ending} after {board.ply()} plies"
                  f" (ponder {'on' if ponder else 'off'}, {limit})")
    finally:
        white.quit()
        black.quit()
    print(f"{games} games, every move legal")


if __name__ == "__main__":
    main()
