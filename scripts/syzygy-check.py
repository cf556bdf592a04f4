#!/usr/bin/env python3
"""Compares Ferrum's Syzygy probes with python-chess's on random positions.

Random legal positions of every material set that the tables in DIR cover are probed by
`ferrum probe --syzygy DIR` (FENs on standard input) and by `chess.syzygy`, which reads
the same files. Checked for each position: its WDL and DTZ; for each legal move, the
WDL it keeps for the side that made it and, for a move that neither captures, moves a
pawn nor mates, its DTZ (one ply more than the DTZ of the position it leads to).
Exit status 1 on any disagreement.

    scripts/syzygy-check.py --ferrum target/release/ferrum --syzygy ../shared/syzygy \\
        --positions 5000 --seed 1
"""

import argparse
import os
import random
import subprocess
import sys

import chess
import chess.syzygy


def material_sets(directory):
    """The material sets (such as 'KQvKR') with both a WDL and a DTZ table in DIR."""
    names = os.listdir(directory)
    wdl = {n[:-5] for n in names if n.endswith(".rtbw")}
    dtz = {n[:-5] for n in names if n.endswith(".rtbz")}
    return sorted(wdl & dtz)


def random_position(material, rng):
    """A random legal position with the pieces of MATERIAL, either side to move."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(white) + len(black))
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in pieces:
                kind = chess.Piece.from_symbol(letter).piece_type
                board.set_piece_at(squares.pop(), chess.Piece(kind, color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def signed_step(dtz):
    """The DTZ of a position one ply before one whose DTZ is `dtz`, for the other side."""
    return -dtz + (1 if -dtz > 0 else -1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ferrum", required=True)
    parser.add_argument("--syzygy", required=True)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    sets = material_sets(args.syzygy)
    boards = [random_position(sets[i % len(sets)], rng) for i in range(args.positions)]
    fens = "".join(board.fen() + "\n" for board in boards)
    out = subprocess.run(
        [args.ferrum, "probe", "--syzygy", args.syzygy],
        input=fens,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    if len(out) != len(boards):
        sys.exit(f"{len(boards)} positions but {len(out)} answers")

    problems = []
    moves_checked = 0
    with chess.syzygy.open_tablebase(args.syzygy) as tables:
        for board, line in zip(boards, out):
            fen = board.fen()
            words = line.split()
            if words[:1] != ["wdl"]:
                problems.append(f"{fen}: no probe: {line}")
                continue
            wdl, dtz = int(words[1]), int(words[3])
            expected = (tables.probe_wdl(board), tables.probe_dtz(board))
            if (wdl, dtz) != expected:
                problems.append(f"{fen}: wdl {wdl} dtz {dtz}, python-chess {expected}")
            answers = {}
            for word in words[5:]:
                move, move_wdl, move_dtz = word.split(":")
                answers[move] = (int(move_wdl), int(move_dtz))
            legal = {m.uci() for m in board.legal_moves}
            if set(answers) != legal:
                problems.append(f"{fen}: moves {sorted(answers)}, legal {sorted(legal)}")
                continue
            for move in board.legal_moves:
                zeroing = board.is_zeroing(move)
                board.push(move)
                mate = board.is_checkmate()
                child_wdl = -2 if mate else tables.probe_wdl(board)
                child_dtz = None if zeroing or mate else tables.probe_dtz(board)
                board.pop()
                got_wdl, got_dtz = answers[move.uci()]
                moves_checked += 1
                if got_wdl != -child_wdl:
                    problems.append(f"{fen} {move}: wdl {got_wdl}, python-chess {-child_wdl}")
                if child_dtz is not None and child_dtz != 0:
                    if got_dtz != signed_step(child_dtz):
                        problems.append(
                            f"{fen} {move}: dtz {got_dtz}, python-chess after it {child_dtz}"
                        )

    for problem in problems[:20]:
        print(problem)
    print(
        f"{len(boards)} positions of {len(sets)} material sets, {moves_checked} moves: "
        f"{len(problems)} disagreements"
    )
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
