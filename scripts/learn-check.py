#!/usr/bin/env python3
"""What Learning changes in the next game, over many positions (docs/learning.md).

For each position P: game 1 searches P to `--depth` and plays move M; the reply R is the
one a deep search (`--deep`) of the position after M finds; the search of the position
after M and R learns it when its score moved by the margin. Game 2 searches P again to
`--depth`, with what was learned. Both games' moves are scored by deep searches and
compared with the deep search's best move of P.

    python3 scripts/learn-check.py target/release/ferrum ../shared/epd/wac.epd \\
        ../shared/epd/openings.epd ../shared/epd/ecm-gcp.epd

Prints a line per learned position and a summary: how often each game played the deep
search's move, the mean gap between each game's score and the deep score, and the mean
loss of each game's move by the deep search's measure (capped at 300 cp a move).
"""

import argparse
import os
import re
import subprocess
import tempfile


class Engine:
    def __init__(self, exe, learn_file=None):
        self.p = subprocess.Popen(
            [exe, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.send("uci")
        self.until("uciok")
        if learn_file:
            self.send(f"setoption name LearnFile value {learn_file}")
            self.send("setoption name Learning value true")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the engine ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")

    def go(self, position, depth):
        """The best move, its score (mates as +-30000) and whether the search learned."""
        self.send(f"position {position}")
        self.send(f"go depth {depth}")
        lines = self.until("bestmove")
        self.send("isready")
        after = self.until("readyok")
        score = None
        for line in lines:
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m:
                value = int(m.group(2))
                score = value if m.group(1) == "cp" else (30000 if value > 0 else -30000)
        learned = any(l.startswith("info string learned") for l in after)
        return lines[-1].split()[1], score, learned

    def quit(self):
        self.send("quit")
        self.p.wait()


def fens(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                fields = line.replace("|", " ").split()
                if len(fields) >= 4:
                    yield " ".join(fields[:4]) + " 0 1"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ferrum")
    parser.add_argument("positions", nargs="+", help="EPD or 'FEN | ...' files")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--deep", type=int, default=13)
    args = parser.parse_args()
    deep = Engine(args.ferrum)

    def deep_search(position):
        deep.new_game()
        move, score, _ = deep.go(position, args.deep)
        return move, score

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        learn_file = os.path.join(tmp, "check.learn")
        for index, fen in enumerate(fens(args.positions)):
            if os.path.exists(learn_file):
                os.remove(learn_file)
            engine = Engine(args.ferrum, learn_file)
            engine.new_game()
            played, score, _ = engine.go(f"fen {fen}", args.depth)
            reply, reply_score = deep_search(f"fen {fen} moves {played}")
            if reply == "(none)" or score is None or reply_score is None:
                engine.quit()
                continue
            _, _, learned = engine.go(f"fen {fen} moves {played} {reply}", args.depth)
            if not learned:
                engine.quit()
                continue
            engine.new_game()
            played2, score2, _ = engine.go(f"fen {fen}", args.depth)
            engine.quit()
            best, best_score = deep_search(f"fen {fen}")

            def deep_value(move):
                return best_score if move == best else -deep_search(f"fen {fen} moves {move}")[1]

            row = (played, score, deep_value(played), played2, score2, deep_value(played2),
                   best, best_score)
            rows.append(row)
            print(index, fen, "| game 1 %s %d (deep %d) | game 2 %s %d (deep %d) | deep %s %d"
                  % row, flush=True)
    deep.quit()
    if not rows:
        print("nothing learned")
        return

    def clamp(score):
        return max(-1500, min(1500, score))

    n = len(rows)
    print(f"{n} positions learned")
    for game, (move, score, value) in (("game 1", (0, 1, 2)), ("game 2", (3, 4, 5))):
        right = sum(1 for r in rows if r[move] == r[6])
        gap = sum(abs(clamp(r[score]) - clamp(r[7])) for r in rows) / n
        loss = sum(min(300, max(0, r[7] - r[value])) for r in rows) / n
        print(f"{game}: deep search's move {right}, score gap {gap:.1f} cp, loss {loss:.1f} cp")
    better = sum(1 for r in rows if max(0, r[7] - r[5]) < max(0, r[7] - r[2]) - 20)
    worse = sum(1 for r in rows if max(0, r[7] - r[5]) > max(0, r[7] - r[2]) + 20)
    print(f"game 2's move better by over 20 cp: {better}, worse: {worse}")


if __name__ == "__main__":
    main()
