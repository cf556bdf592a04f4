#!/usr/bin/env python3
"""A book from `ferrum makebook`, read back by Ferrum and by python-chess's chess.polyglot:
the same moves with the same weights (weight 0 included) in every position of the games it
was built from, variations included.

    python3 scripts/book-check.py target/release/ferrum tests/data/openings-1000.pgn
    python3 scripts/book-check.py target/release/ferrum tests/data/repertoire.pgn \
        tests/data/openings-1000.pgn

Exits non-zero on any difference.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.polyglot


def positions(pgn_paths, max_ply):
    """Positions (as FEN) of the games' first `max_ply` plies, variations included, one per
    Polyglot key."""
    seen, fens = set(), []
    for pgn_path in pgn_paths:
        with open(pgn_path) as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                nodes = [game]
                while nodes:
                    node = nodes.pop()
                    board = node.board()
                    if board.ply() - game.board().ply() >= max_ply:
                        continue
                    key = chess.polyglot.zobrist_hash(board)
                    if key not in seen:
                        seen.add(key)
                        fens.append(board.fen())
                    nodes.extend(node.variations)
    return fens


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ferrum")
    parser.add_argument("pgn", nargs="+", help="the first of several is the repertoire")
    parser.add_argument("--max-ply", type=int, default=20)
    parser.add_argument("--min-games", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "book.bin")
        subprocess.run(
            [args.ferrum, "makebook", *args.pgn, "-o", book, "--max-ply", str(args.max_ply),
             "--min-games", str(args.min_games)],
            check=True,
        )
        fens = positions(args.pgn, args.max_ply)
        commands = "".join(f"position fen {fen}\nbook\n" for fen in fens) + "quit\n"
        replies = subprocess.run(
            [args.ferrum, "--book", book], input=commands, capture_output=True, text=True,
            check=True,
        ).stdout.splitlines()
        if len(replies) != len(fens):
            sys.exit(f"{len(fens)} positions asked, {len(replies)} replies")

        differences = entries = 0
        with chess.polyglot.open_reader(book) as reader:
            for fen, reply in zip(fens, replies):
                board = chess.Board(fen)
                theirs = sorted((board.uci(e.move), e.weight) for e in reader.find_all(board, minimum_weight=0))
                words = reply.split()
                if not words or words[0] != "book":
                    sys.exit(f"unexpected reply for {fen}: {reply}")
                ours = sorted((w.split(":")[0], int(w.split(":")[1])) for w in words[1:])
                entries += len(theirs)
                if ours != theirs:
                    differences += 1
                    if differences <= 10:
                        print(f"{fen}: ferrum {ours}, chess.polyglot {theirs}")
        size = os.path.getsize(book) // 16
    print(f"{len(fens)} positions, {entries} book moves found of {size} in the book, "
          f"{differences} differences")
    if differences or entries != size:
        sys.exit(1)


if __name__ == "__main__":
    main()
