#!/usr/bin/env python3
"""Measures UCI response times and memory of an engine over pipes: uci -> uciok,
stop -> bestmove during `go infinite`, quit during a search -> exit, and resident memory
after a search with a given Hash.   scripts/uci-latency.py ./target/release/ferrum [rounds]"""
import statistics
import subprocess
import sys
import time


def start(engine):
    return subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def wait_for(p, prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError(f"engine closed before {prefix}")
        if line.startswith(prefix):
            return line


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    engine = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    uciok, stop, quit_ = [], [], []
    for _ in range(rounds):
        p = start(engine)
        t = time.perf_counter()
        send(p, "uci")
        wait_for(p, "uciok")
        uciok.append((time.perf_counter() - t) * 1000)
        send(p, "isready")
        wait_for(p, "readyok")
        send(p, "go infinite")
        time.sleep(0.3)
        t = time.perf_counter()
        send(p, "stop")
        wait_for(p, "bestmove")
        stop.append((time.perf_counter() - t) * 1000)
        send(p, "go infinite")
        time.sleep(0.3)
        t = time.perf_counter()
        send(p, "quit")
        p.wait(timeout=5)
        quit_.append((time.perf_counter() - t) * 1000)
    for name, values in [("uci -> uciok", uciok), ("stop -> bestmove", stop), ("quit -> exit", quit_)]:
        print(f"{name:18} median {statistics.median(values):6.2f} ms  max {max(values):6.2f} ms  ({rounds} runs)")
    for hash_mb in (16, 256):
        p = start(engine)
        send(p, "uci")
        send(p, f"setoption name Hash value {hash_mb}")
        send(p, "isready")
        wait_for(p, "readyok")
        send(p, "go movetime 2000")
        wait_for(p, "bestmove")
        print(f"Hash {hash_mb:4} MiB: resident {rss_mib(p.pid):7.1f} MiB after a 2 s search")
        send(p, "quit")
        p.wait(timeout=5)


if __name__ == "__main__":
    main()
