#!/usr/bin/env python3
"""Instructions per node of a fixed-node search from the start position, counted by
callgrind: unlike a timing, the same on a busy machine as on a quiet one. Needs valgrind.

    scripts/instructions.py [--nodes 2000000] [--hash 16] EXE [EXE ...]
"""
import argparse
import os
import subprocess
import tempfile


def instructions(exe, nodes, hash_mb):
    """Instructions executed by the whole process for one search of `nodes` nodes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                              exe, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        p.stdin.write(f"uci\nsetoption name Hash value {hash_mb}\nisready\n"
                      f"position startpos\ngo nodes {nodes}\n")
        p.stdin.flush()
        for line in p.stdout:
            if line.startswith("bestmove"):
                break
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()
        with open(out) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    return int(line.split()[1])
    raise SystemExit(f"{exe}: no totals in callgrind's output")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--hash", type=int, default=16, help="table size in MiB")
    ap.add_argument("exes", nargs="+")
    args = ap.parse_args()
    for exe in args.exes:
        if not os.access(exe, os.X_OK):
            raise SystemExit(f"{exe}: not an executable")
        total = instructions(exe, args.nodes, args.hash)
        print(f"{os.path.basename(exe):24} {total / args.nodes:7.0f} instructions per node")


if __name__ == "__main__":
    main()
