#!/usr/bin/env python3
"""Elo, its 95% interval and normalized Elo of one or more runs of paired games, from their
pentanomial counts (fastchess's `Ptnml(0-2)`: pairs scoring 0, 1/2, 1, 3/2 and 2 points),
pooled when several are given; with `--sprt`, the log-likelihood ratio of the normalized
SPRT as fastchess computes it, so that runs stopped undecided can be judged together.

    scripts/pentanomial.py [--sprt 0,10] 0,6,37,43,14 0,8,47,52,13
"""
import argparse
import math

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
# The slope of the logistic Elo curve at 50%, in Elo per unit of score over the deviation.
NELO_SCALE = 800 / math.log(10)


def elo(score):
    return -400 * math.log10(1 / score - 1)


def counts(text):
    values = [int(v) for v in text.split(",")]
    if len(values) != 5 or min(values) < 0:
        raise argparse.ArgumentTypeError(f"five counts expected, got {text!r}")
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=counts, metavar="P0,P1,P2,P3,P4")
    parser.add_argument("--sprt", metavar="ELO0,ELO1", help="normalized Elo bounds")
    args = parser.parse_args()

    pooled = [sum(run[i] for run in args.runs) for i in range(5)]
    pairs = sum(pooled)
    mean = sum(n * s for n, s in zip(pooled, PAIR_SCORES)) / pairs
    variance = sum(n * (s - mean) ** 2 for n, s in zip(pooled, PAIR_SCORES)) / pairs
    if variance == 0:
        raise SystemExit("every pair scored the same: no interval")
    margin = 1.96 * math.sqrt(variance / pairs)
    low, high = elo(max(mean - margin, 1e-9)), elo(min(mean + margin, 1 - 1e-9))
    deviation = math.sqrt(2 * variance)
    print(f"pairs {pairs} ({2 * pairs} games), pentanomial {pooled}, score {100 * mean:.2f}%")
    print(f"Elo {elo(mean):+.1f} +- {(high - low) / 2:.1f} (95%: {low:+.1f} to {high:+.1f})")
    print(f"nElo {NELO_SCALE * (mean - 0.5) / deviation:+.1f}")
    if args.sprt:
        elo0, elo1 = (float(v) for v in args.sprt.split(","))
        mu0, mu1 = (0.5 + e / NELO_SCALE * deviation for e in (elo0, elo1))
        llr = pairs / (2 * variance) * ((mean - mu0) ** 2 - (mean - mu1) ** 2)
        print(f"LLR {llr:+.2f} for nElo [{elo0:g}, {elo1:g}]")


if __name__ == "__main__":
    main()
