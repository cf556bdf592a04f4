#!/usr/bin/env python3
"""Plots the training and validation loss per epoch of `ferrum train` runs.

    python3 scripts/plot-losses.py -o docs/nnue-losses.png "trial 0=trial0.log" "trial 1=trial1.log"

Each argument is LABEL=LOG, LOG being what `ferrum train` printed: a panel a run with its
training and validation loss, or with --compare one panel of the runs' validation losses
(runs on the same data share their validation set). Needs matplotlib.
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
    parser.add_argument("--compare", action="store_true", help="the validation losses in one panel")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = []
    for run in args.runs:
        label, _, path = run.partition("=")
        if not path:
            sys.exit(f"'{run}' is not LABEL=LOG")
        runs.append((label, read(path)))
    panels = 1 if args.compare else len(runs)
    figure, axes = plt.subplots(1, panels, figsize=(7 if args.compare else 5 * panels, 3.6 if not args.compare else 4.5), squeeze=False)
    for n, (label, (epochs, train, valid)) in enumerate(runs):
        axis = axes[0][0 if args.compare else n]
        if args.compare:
            axis.plot(epochs, valid, marker=".", label=label)
            axis.set_title("validation loss")
        else:
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
