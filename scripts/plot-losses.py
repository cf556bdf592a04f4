#!/usr/bin/env python3
"""Plots the training and validation loss per epoch of `ferrum train` runs.

    python3 scripts/plot-losses.py -o docs/nnue-losses.png "trial 0=trial0.log" "trial 1=trial1.log"

Each argument is LABEL=LOG, LOG being what `ferrum train` printed. Needs matplotlib.
"""

import argparse
import re
import sys

LINE = re.compile(r"epoch\s+(\d+)\s+train loss ([\d.]+)\s+validation loss ([\d.naN]+)")


def read(path):
    """(epochs, training losses, validation losses) of one log."""
    epochs, train, valid = [], [], []
    with open(path) as log:
        for line in log:
            match = LINE.search(line)
            if match:
                epochs.append(int(match.group(1)))
                train.append(float(match.group(2)))
                valid.append(float(match.group(3)))
    if not epochs:
        sys.exit(f"{path}: no epoch lines of ferrum train")
    return epochs, train, valid


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="LABEL=LOG")
    parser.add_argument("-o", "--output", required=True, help="the image to write (.png)")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(args.runs), figsize=(5 * len(args.runs), 3.6), squeeze=False)
    for axis, run in zip(axes[0], args.runs):
        label, _, path = run.partition("=")
        if not path:
            sys.exit(f"'{run}' is not LABEL=LOG")
        epochs, train, valid = read(path)
        axis.plot(epochs, train, marker="o", label="training")
        axis.plot(epochs, valid, marker="s", label="validation")
        axis.set_title(label)
        axis.set_xlabel("epoch")
        axis.set_ylabel("loss (squared error of the win chance)")
        axis.grid(alpha=0.3)
        axis.legend()
    figure.tight_layout()
    figure.savefig(args.output, dpi=100)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
