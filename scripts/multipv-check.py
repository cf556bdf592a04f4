#!/usr/bin/env python3
"""MultiPV analysis as a real client sees it. python-chess keeps the last line of each
`multipv` rank; after each analysis the K lines it holds must have K distinct first moves,
in score order, legal PVs, and only moves from `root_moves` when it is given. Analyses run
in positions from games just played with pondering on and off (the engine's state after a
game is part of the test), at fixed depths and at fixed times (a search stopped in the
middle of an iteration), with K = 2 to 5. XBoard analysis is checked with `root_moves`
(python-chess sends `exclude all` and `include`), as python-chess has no XBoard MultiPV.
    scripts/multipv-check.py target/release/ferrum [analyses]"""
import random
import sys

import chess
import chess.engine

MATE = 100_000


def check_lines(board, lines, k, root_moves, what):
    expected = min(k, len(root_moves) if root_moves else board.legal_moves.count())
    if len(lines) != expected:
        raise SystemExit(f"{what}: {len(lines)} lines, expected {expected}")
    firsts = [line["pv"][0] for line in lines]
    if len(set(firsts)) != len(firsts):
        raise SystemExit(f"{what}: a first move twice: {[m.uci() for m in firsts]}")
    scores = [line["score"].relative.score(mate_score=MATE) for line in lines]
    if scores != sorted(scores, reverse=True):
        raise SystemExit(f"{what}: lines out of score order: {scores}")
    if root_moves and not set(firsts) <= set(root_moves):
        raise SystemExit(f"{what}: a move outside root_moves: {[m.uci() for m in firsts]}")
    for line in lines:
        after = board.copy()
        for move in line["pv"]:
            if move not in after.legal_moves:
                raise SystemExit(f"{what}: illegal PV move {move} in {after.fen()}")
            after.push(move)


def play_game(engine, ponder, max_plies=120):
    """Self-play; returns the positions of the game."""
    board, positions = chess.Board(), []
    limit = chess.engine.Limit(time=0.02)
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engine.play(board, limit, ponder=ponder)
        if result.move is None:
            break
        board.push(result.move)
        positions.append(board.copy())
    return [p for p in positions if not p.is_game_over()]


def main():
    path = sys.argv[1]
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(7)
    engine = chess.engine.SimpleEngine.popen_uci([path, "uci"])
    done = 0
    try:
        engine.configure({"Hash": 16})
        game = 0
        while done < wanted:
            ponder = game % 2 == 0
            positions = play_game(engine, ponder)
            game += 1
            for board in rng.sample(positions, min(len(positions), 12)):
                for k in range(2, 6):
                    legal = list(board.legal_moves)
                    root_moves = None
                    if done % 3 == 2 and len(legal) > k:
                        root_moves = rng.sample(legal, rng.randint(2, len(legal) - 1))
                    limit = (chess.engine.Limit(depth=rng.randint(6, 10)) if done % 2 == 0
                             else chess.engine.Limit(time=rng.choice([0.01, 0.05, 0.2])))
                    lines = engine.analyse(board, limit, multipv=k, root_moves=root_moves)
                    what = (f"uci analysis {done + 1} (after a game with pondering "
                            f"{'on' if ponder else 'off'}, K={k}, {limit}, {board.fen()})")
                    check_lines(board, lines, k, root_moves, what)
                    done += 1
        print(f"uci: {done} MultiPV analyses, K = 2 to 5, after {game} games: "
              "distinct first moves in score order every time")
    finally:
        engine.quit()

    engine = chess.engine.SimpleEngine.popen_xboard([path, "xboard"])
    try:
        board = chess.Board()
        for n in range(20):
            legal = list(board.legal_moves)
            root_moves = rng.sample(legal, rng.randint(1, min(4, len(legal))))
            info = engine.analyse(board, chess.engine.Limit(time=0.1), root_moves=root_moves)
            if not info.get("pv") or info["pv"][0] not in root_moves:
                raise SystemExit(f"xboard: PV {info.get('pv')} not from {root_moves}")
            board.push(rng.choice(legal))
            if board.is_game_over():
                board = chess.Board()
        print("xboard: 20 analyses with root_moves (exclude/include) kept to them")
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
