#!/usr/bin/env python3
"""Nodes per second of engine builds from the start position, each searching a fixed number
of nodes over UCI, builds interleaved round by round so that the shared machine's noise hits
them alike. Prints the best and the median of each, with the depth reached. The best is the
steadiest figure on a noisy machine: interference only ever slows a run down.

    scripts/nps-fixed.py [--rounds 8] [--nodes 12000000] [--hash 16] ENGINE [ENGINE ...]

An ENGINE is a command, one argument to this script: its words holding `=` are UCI options
set before the search (`"ferrum-tune uci Hash=1 nmp_depth=100"`); a command of one word
gets the argument `uci` (Ferrum's protocol switch).
"""
import argparse
import statistics
import subprocess


def parse(engine, hash_mb):
    """The command line and the UCI options of one ENGINE argument."""
    words = engine.split()
    command = [w for w in words if "=" not in w]
    options = {"Hash": str(hash_mb)}
    options.update(w.split("=", 1) for w in words if "=" in w)
    if len(command) == 1:
        command.append("uci")
    return command, options


def search(command, options, nodes):
    """The nps and depth of the last complete info line of one search."""
    p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    setup = "".join(f"setoption name {k} value {v}\n" for k, v in options.items())
    p.stdin.write(f"uci\n{setup}isready\nposition startpos\ngo nodes {nodes}\n")
    p.stdin.flush()
    found = None
    for line in p.stdout:
        words = line.split()
        if "nps" in words and "depth" in words and "bound" not in line:
            found = (int(words[words.index("nps") + 1]), words[words.index("depth") + 1])
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    if found is None:
        raise SystemExit(f"{' '.join(command)}: no nps in its output")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=12_000_000)
    ap.add_argument("--hash", type=int, default=16, help="table size in MiB")
    ap.add_argument("engines", nargs="+")
    args = ap.parse_args()
    setups = [parse(engine, args.hash) for engine in args.engines]
    runs = {engine: [] for engine in args.engines}
    for _ in range(args.rounds):
        for engine, (command, options) in zip(args.engines, setups):
            runs[engine].append(search(command, options, args.nodes))
    for engine, found in runs.items():
        rates = [nps for nps, _ in found]
        each = " ".join(f"{nps / 1e6:.2f}" for nps in rates)
        depths = "/".join(sorted({depth for _, depth in found}))
        print(f"{engine}\n    best {max(rates) / 1e6:.2f} median {statistics.median(rates) / 1e6:.2f}"
              f" Mnps, depth {depths}   ({each})")


if __name__ == "__main__":
    main()
