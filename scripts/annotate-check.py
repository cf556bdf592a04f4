#!/usr/bin/env python3
"""`ferrum annotate` read back by python-chess: every annotated game has the moves of the
game it came from (up to a move that cannot be played, in the bad game added on purpose),
an evaluation (`node.eval()`) on every move, only the verdict NAGs ?! ? ??, variations
that are legal from where they start, accuracy tags from 0 to 100, one summary line a
game, and an evaluation graph a game that is well-formed SVG.

    python3 scripts/annotate-check.py target/release/ferrum docs/games/uci-elo-2500-60+0.6.pgn \
        --games 3 --nodes 3000

The games checked: the first GAMES of the file, a short game that ends in mate, and one
whose third move is illegal. Exits non-zero on any difference.
"""

import argparse
import io
import logging
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import chess
import chess.pgn

EXTRA = """[Event "mate"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "illegal"]
[White "C"]
[Black "D"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Ke3 Nf6 *
"""

VERDICTS = {2, 4, 6}


def read_games(text):
    games, stream = [], io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ferrum")
    parser.add_argument("pgn")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    # The bad game's illegal move is expected: python-chess need not log it.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

    with open(args.pgn) as f:
        originals = read_games(f.read())[: args.games]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "games.pgn")
        with open(source, "w") as f:
            for game in originals:
                print(game, file=f, end="\n\n")
            # As written: python-chess would drop the illegal move.
            f.write(EXTRA)
        originals += read_games(EXTRA)
        out_path, svg_dir = os.path.join(tmp, "out.pgn"), os.path.join(tmp, "svg")
        run = subprocess.run(
            [args.ferrum, "annotate", source, "-o", out_path, "--nodes", str(args.nodes),
             "--threads", str(args.threads), "--svg", svg_dir],
            capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            sys.exit(f"ferrum annotate failed ({run.returncode}): {run.stderr}")
        with open(out_path) as f:
            annotated = read_games(f.read())
        summaries = [l for l in run.stdout.splitlines() if l.startswith("game ")]
        if len(summaries) != len(originals):
            problems.append(f"{len(summaries)} summary lines for {len(originals)} games")
        if "game %d: move 3. Ke3 cannot be played" % len(originals) not in run.stderr:
            problems.append(f"the illegal move is not reported: {run.stderr!r}")
        if len(annotated) != len(originals):
            sys.exit(f"{len(annotated)} games read back from {len(originals)}")

        evaluated = 0
        for number, (original, game) in enumerate(zip(originals, annotated), 1):
            where = f"game {number}"
            if game.errors:
                problems.append(f"{where}: python-chess: {game.errors}")
            moves = list(original.mainline_moves())
            if original.headers.get("Event") == "illegal":
                moves = moves[:4]
            if list(game.mainline_moves()) != moves:
                problems.append(f"{where}: the moves differ")
            for node in game.mainline():
                evaluated += 1
                if node.eval() is None:
                    problems.append(f"{where}: no evaluation after {node.san()}: {node.comment!r}")
                extra = node.nags - VERDICTS
                if extra:
                    problems.append(f"{where}: NAGs {extra} after {node.san()}")
                if node.nags & {2, 4} and len(node.parent.variations) < 2:
                    problems.append(f"{where}: a mistake without a better line at {node.san()}")
            for side in ("White", "Black"):
                value = float(game.headers.get(f"{side}Accuracy", "0"))
                if not 0 <= value <= 100:
                    problems.append(f"{where}: {side}Accuracy {value}")
            svg = os.path.join(svg_dir, "game-%04d.svg" % number)
            try:
                root = ET.parse(svg).getroot()
                if not root.tag.endswith("svg"):
                    problems.append(f"{svg}: the root is {root.tag}")
            except (OSError, ET.ParseError) as e:
                problems.append(f"{svg}: {e}")
        mate = annotated[-2].end()
        if mate.eval() is None or mate.eval().white().mate() != 0 or not mate.board().is_checkmate():
            problems.append(f"the mate's evaluation: {mate.comment!r}")
        if not any(4 in n.nags for n in annotated[-2].mainline()):
            problems.append("3...Nf6 allows mate in one and is not a blunder")

    if not any(f"{side}Accuracy" in g.headers for g in annotated for side in ("White", "Black")):
        problems.append("no accuracy tags")
    for problem in problems[:30]:
        print(problem)
    print(f"{len(annotated)} games, {evaluated} moves read back: {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
