#!/usr/bin/env python3
"""Nodes per second of engine builds from the start position, each searching a fixed number
of nodes over UCI, builds interleaved round by round so that the shared machine's noise hits
them alike. Prints the best and the median of each. The best is the steadiest figure on a
noisy machine: interference only ever slows a run down.

    scripts/nps-fixed.py [--rounds 8] [--nodes 12000000] [--hash 16] EXE [EXE ...]
"""
import argparse
import os
import statistics
import subprocess


def nps(exe, nodes, hash_mb):
    """The nps of the last complete info line of one search."""
    p = subprocess.Popen([exe, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\nsetoption name Hash value {hash_mb}\nisready\n"
                  f"position startpos\ngo nodes {nodes}\n")
    p.stdin.flush()
    found = None
    for line in p.stdout:
        words = line.split()
        if "nps" in words and "bound" not in line:
            found = int(words[words.index("nps") + 1])
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    if found is None:
        raise SystemExit(f"{exe}: no nps in its output")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=12_000_000)
    ap.add_argument("--hash", type=int, default=16, help="table size in MiB")
    ap.add_argument("exes", nargs="+")
    args = ap.parse_args()
    runs = {exe: [] for exe in args.exes}
    for _ in range(args.rounds):
        for exe in args.exes:
            runs[exe].append(nps(exe, args.nodes, args.hash))
    for exe, values in runs.items():
        each = " ".join(f"{v / 1e6:.2f}" for v in values)
        print(f"{os.path.basename(exe):24} best {max(values) / 1e6:.2f} "
              f"median {statistics.median(values) / 1e6:.2f} Mnps   ({each})")


if __name__ == "__main__":
    main()
