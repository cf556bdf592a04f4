#!/usr/bin/env python3
"""Time to depth and nodes per second of engine builds: each searches the start position and
five of `bench`'s middlegames to a fixed depth over UCI (one thread, a fresh table each),
builds interleaved round by round so that the shared machine's noise hits them alike.
Prints, per build and position, the fastest time to the depth, the nodes of that search
and its speed, then the totals.

    scripts/time-to-depth.py [--depth 12] [--rounds 3] [--hash 16] ENGINE [ENGINE ...]

An ENGINE is a command; a command of one word gets the argument `uci`.
"""
import argparse
import subprocess

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rn1qk2r/pb1p1ppp/1p2p3/2P5/1bP5/2n2NP1/PP1BPPBP/R2QK2R w KQkq - 0 9",
    "r1bq1rk1/ppp2ppp/2n2n2/1B2N3/1b1p4/2P5/PP2QPPP/RNB1K2R w KQ - 1 9",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2Pp4/1PNBPN2/P4PPP/R1BQ1RK1 w - - 0 9",
    "r1bqr1k1/1ppp1pp1/p1n2n1p/2b1p1B1/B3P3/2PP1N2/PP1N1PPP/R2QK2R w KQ - 0 9",
    "r2q1rk1/pp1bbppp/2nppn2/1Bp5/4P3/1P1P1N2/PBPN1PPP/R2Q1RK1 w - - 3 9",
]


def search(command, fen, depth, hash_mb):
    """(milliseconds, nodes) of the last info line of a search to `depth`."""
    script = (
        f"uci\nsetoption name Hash value {hash_mb}\nucinewgame\nisready\n"
        f"position fen {fen}\ngo depth {depth}\n"
    )
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    proc.stdin.write(script)
    proc.stdin.flush()
    last = None
    for line in proc.stdout:
        words = line.split()
        if words[:1] == ["info"] and "time" in words and "nodes" in words:
            last = words
        if words[:1] == ["bestmove"]:
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    value = lambda key: int(last[last.index(key) + 1])
    return value("time"), value("nodes")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    commands = [e.split() + (["uci"] if len(e.split()) == 1 else []) for e in args.engines]
    best = {}
    for _ in range(args.rounds):
        for e, command in enumerate(commands):
            for p, fen in enumerate(POSITIONS):
                ms, nodes = search(command, fen, args.depth, args.hash)
                if (e, p) not in best or ms < best[e, p][0]:
                    best[e, p] = (ms, nodes)
    for e, engine in enumerate(args.engines):
        print(f"{engine}: depth {args.depth}, fastest of {args.rounds}")
        total_ms = total_nodes = 0
        for p, fen in enumerate(POSITIONS):
            ms, nodes = best[e, p]
            total_ms += ms
            total_nodes += nodes
            print(f"  {ms:7d} ms {nodes:10d} nodes {nodes * 1000 // max(ms, 1):9d} nps  {fen}")
        print(
            f"  {total_ms:7d} ms {total_nodes:10d} nodes "
            f"{total_nodes * 1000 // max(total_ms, 1):9d} nps  total"
        )


if __name__ == "__main__":
    main()
