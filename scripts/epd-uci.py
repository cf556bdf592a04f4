#!/usr/bin/env python3
"""An EPD suite (bm/am) through UCI, with options: for the `tune` build's search constants,
which `ferrum test` cannot set, and for other engines.

    python3 scripts/epd-uci.py ENGINE epd/wac-revised.epd --time 1 --option se_depth=10

With --nodes instead of --time each search stops at a node count: the same result every
run, so that two settings compare without the machine's noise.

Each position starts with a cleared table (`Clear Hash`, which also clears Ferrum's
histories). Prints the options, the number solved and the ids missed.
"""

import argparse

import chess
import chess.engine


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("epd")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a position")
    parser.add_argument("--nodes", type=int, help="nodes a position (instead of --time)")
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()

    options = dict(o.split("=", 1) for o in args.option)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Hash": args.hash, **options})
    if args.nodes:
        limit = chess.engine.Limit(nodes=args.nodes)
    else:
        limit = chess.engine.Limit(time=args.time)
    solved, missed = 0, []
    with open(args.epd) as epd:
        for line in filter(str.strip, epd):
            board, ops = chess.Board.from_epd(line.strip())
            if "Clear Hash" in engine.options:
                engine.configure({"Clear Hash": None})
            move = engine.play(board, limit).move
            ok = move in ops.get("bm", [move]) and move not in ops.get("am", [])
            solved += ok
            if not ok:
                missed.append(str(ops.get("id", board.fen())))
    engine.quit()
    print(f"{options} {solved} solved; missed: {' '.join(missed)}")


if __name__ == "__main__":
    main()
