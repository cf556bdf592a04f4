#!/usr/bin/env python3
"""SPSA tuning of the search's constants by self-play: each step plays a few game pairs
between the engine with every constant moved up or down at random (theta + c*delta) and
the engine moved the other way (theta - c*delta), and moves theta towards the side that
scored better. The engine is a `--features tune` build, whose constants are UCI options.

    scripts/spsa.py --engine ferrum-tune --state spsa.json --steps 2000 \\
        --openings openings.epd --param rfp_margin,90,0,300,10 [--param ...] [--tc 5+0.05]

Each --param is NAME,START,MIN,MAX,C_END: C_END is the size of the last steps' moves in
the option's own units (hundredths for the fractional constants), R_END (--r-end, 0.002
by default) the last steps' learning rate, as in OpenBench's SPSA (gains a_k = a / (A +
k)^0.602 and c_k = c / k^0.101, A a tenth of the steps). The state file holds theta and
the step reached, written after every step, so that a run stopped any way goes on from
there when given the same file; --steps and the parameters are then read from it.
Games are played by fastchess, two pairs at a time by default (--concurrency).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA, GAMMA = 0.602, 0.101
RESULT = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")


def param(text):
    parts = text.split(",")
    if len(parts) != 5:
        raise argparse.ArgumentTypeError(f"NAME,START,MIN,MAX,C_END expected, got {text!r}")
    name, start, low, high, c_end = parts[0], *map(float, parts[1:])
    if not low <= start <= high or c_end <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: START must lie in MIN..MAX, C_END > 0")
    return {"name": name, "value": start, "min": low, "max": high, "c_end": c_end}


def load_state(args):
    if os.path.exists(args.state):
        with open(args.state) as f:
            return json.load(f)
    if not args.param:
        sys.exit(f"{args.state} does not exist: give the parameters (--param)")
    return {"step": 0, "steps": args.steps, "r_end": args.r_end, "seed": args.seed,
            "params": args.param, "history": []}


def save_state(state, path):
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(os.path.abspath(path)),
                                     delete=False) as f:
        json.dump(state, f, indent=1)
    os.replace(f.name, path)


def options(params, sign, deltas, c_factor):
    values = []
    for p, d in zip(params, deltas):
        v = p["value"] + sign * d * p["c_end"] * c_factor
        values.append(round(min(max(v, p["min"]), p["max"])))
    return " ".join(f"option.{p['name']}={v}" for p, v in zip(params, values))


def play(args, plus, minus, seed):
    """Wins minus losses of the engine given `plus`, over the step's game pairs."""
    command = (f"fastchess -engine cmd={args.engine} name=plus {plus} "
               f"-engine cmd={args.engine} name=minus {minus} "
               f"-each proto=uci tc={args.tc} option.Hash=16 option.Threads=1 "
               f"-openings file={args.openings} format=epd order=random -srand {seed} "
               f"-rounds {args.pairs} -games 2 -repeat -concurrency {args.concurrency}")
    out = subprocess.run(command.split(), capture_output=True, text=True).stdout
    found = RESULT.findall(out)
    if not found:
        sys.exit(f"no result from fastchess:\n{out[-2000:]}")
    games, wins, losses, draws = map(int, found[-1])
    return wins - losses, (wins, losses, draws)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--param", action="append", type=param, default=[])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--r-end", type=float, default=0.002)
    parser.add_argument("--pairs", type=int, default=2, help="game pairs a step")
    parser.add_argument("--tc", default="5+0.05")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--openings", required=True, help="EPD file of openings")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.engine, args.openings = os.path.abspath(args.engine), os.path.abspath(args.openings)

    state = load_state(args)
    params, steps = state["params"], state["steps"]
    big_a = steps / 10
    while state["step"] < steps:
        k = state["step"] + 1
        rng = random.Random(state["seed"] * 1_000_003 + k)
        deltas = [rng.choice((-1, 1)) for _ in params]
        c_factor = (steps / k) ** GAMMA  # c_k / c_end
        score, wld = play(args, options(params, 1, deltas, c_factor),
                          options(params, -1, deltas, c_factor), rng.randrange(1 << 31))
        for p, d in zip(params, deltas):
            c_k = p["c_end"] * c_factor
            a_k = state["r_end"] * p["c_end"] ** 2 * ((big_a + steps) / (big_a + k)) ** ALPHA
            p["value"] = min(max(p["value"] + a_k * score * d / c_k, p["min"]), p["max"])
        state["step"] = k
        state["history"].append([k, *wld])
        save_state(state, args.state)
        print(f"step {k}/{steps} {wld[0]}-{wld[1]}-{wld[2]} "
              + " ".join(f"{p['name']}={p['value']:.1f}" for p in params), flush=True)


if __name__ == "__main__":
    main()
