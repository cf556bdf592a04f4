#!/usr/bin/env python3
"""A whole terminal game of `ferrum play` in a real terminal (tmux), played to the end.

The person is this script: it types into the pane with send-keys and reads the screen with
capture-pane, as someone at the keyboard would. It plays White against Ferrum at its lowest
strength, taking each of its moves from Ferrum's own `hint` (a full-strength search), so
the game ends in a mate. On the way it types an illegal move and a move in coordinates,
flips the board, and takes a move back. At the end the PGN file the game was appended to
is replayed with python-chess: the moves must be legal and end in the mate that was shown.

usage: scripts/terminal-game.py FERRUM [--moves N]   (needs tmux and python-chess)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import chess
import chess.pgn

SESSION = "ferrum-terminal-game"


def tmux(*args):
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def screen():
    """The visible lines of the pane, trailing blank lines dropped."""
    lines = tmux("capture-pane", "-p", "-t", SESSION).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def type_line(text):
    tmux("send-keys", "-t", SESSION, "-l", text)
    tmux("send-keys", "-t", SESSION, "Enter")


def wait_for(what, test, timeout=30.0):
    """Polls the screen until `test(lines)` holds; fails with the screen after `timeout`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        lines = screen()
        if test(lines):
            return lines
        time.sleep(0.05)
    sys.exit(f"FAIL: waiting for {what}; the screen:\n" + "\n".join(screen()))


def prompt_after(pattern):
    """The screen ends with a bare prompt, just below a line matching `pattern`."""
    def test(lines):
        return (
            len(lines) >= 2
            and lines[-1].rstrip() == "Your move>"
            and re.search(pattern, lines[-2]) is not None
        )
    return test


def game_over(lines):
    return any("'new' starts another game" in l for l in lines[-3:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ferrum")
    parser.add_argument("--moves", type=int, default=150, help="give up after N moves")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("FAIL: tmux is not installed")
    work = tempfile.mkdtemp(prefix="ferrum-tmux-")
    pgn_path = os.path.join(work, "games.pgn")
    command = (
        f"{os.path.abspath(args.ferrum)} play white --tc none --elo 1000 "
        f"--pgn-out {pgn_path}"
    )
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "60",
         "env", "LANG=C.UTF-8", "sh", "-c", command + "; echo EXITED; sleep 600")
    try:
        play(pgn_path)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def play(pgn_path):
    lines = wait_for("the first board", prompt_after(r"White to move"))
    if not any("♔" in l for l in lines) or not any("♚" in l for l in lines):
        sys.exit("FAIL: a UTF-8 terminal shows no figurines:\n" + "\n".join(lines))

    # An illegal move is refused and the game goes on.
    type_line("Ke2")
    wait_for("the illegal-move message",
             prompt_after(r"error: 'Ke2' is not a legal move here"))
    # A move in coordinates, Ferrum's reply, then back again.
    type_line("e2e4")
    wait_for("Ferrum's reply to 1. e4", prompt_after(r"White to move"))
    if not any("You play 1. e4" in l for l in screen()):
        sys.exit("FAIL: e2e4 was not played as 1. e4")
    type_line("undo")
    lines = wait_for("the take-back", prompt_after(r"White to move"))
    if not any("Took back two moves" in l for l in lines):
        sys.exit("FAIL: undo did not take two moves back:\n" + "\n".join(lines))
    # The board turned round: rank 1 on top, then back.
    type_line("flip")
    lines = wait_for("the flipped board", prompt_after(r"White to move"))
    ranks = [l.split()[0] for l in lines if re.match(r"^ [1-8] ", l)]
    if ranks[-8:] != list("12345678"):
        sys.exit(f"FAIL: flip shows ranks {ranks[-8:]}")
    type_line("flip")
    wait_for("the board again", prompt_after(r"White to move"))

    shown = []
    for number in range(1, 1000):
        if number > 150:
            type_line("resign")
            wait_for("the end of the game", game_over)
            break
        type_line("hint")
        lines = wait_for("a hint", prompt_after(r"^Hint: "))
        san = re.match(r"^Hint: (\S+)", lines[-2]).group(1)
        shown.append(san)
        type_line(san)
        lines = wait_for(
            f"move {number}",
            lambda l: game_over(l) or prompt_after(r"to move")(l),
        )
        if game_over(lines):
            break
    lines = screen()
    over = [l for l in lines if l.startswith("Game over: ")]
    if not over:
        sys.exit("FAIL: no result on the screen:\n" + "\n".join(lines))
    print(f"{over[-1]} after {len(shown)} moves of ours")

    with open(pgn_path) as f:
        game = chess.pgn.read_game(f)
    if game is None or game.errors:
        sys.exit(f"FAIL: the PGN file does not read: {game and game.errors}")
    board = game.end().board()
    result = game.headers["Result"]
    ours = [m for i, m in enumerate(game.mainline_moves()) if i % 2 == 0]
    print(f"PGN: {len(list(game.mainline_moves()))} plies, result {result}, "
          f"termination {game.headers.get('Termination')}")
    if board.is_checkmate():
        expected = "0-1" if board.turn == chess.WHITE else "1-0"
        if result != expected or f"Game over: {expected}" not in over[-1]:
            sys.exit(f"FAIL: a mate on the board but the result says {result}")
    elif "resigned" not in over[-1] or result != "0-1":
        sys.exit(f"FAIL: the game ended neither in mate nor in our resignation: {over[-1]}")
    if len(ours) != len(shown):
        sys.exit(f"FAIL: {len(shown)} moves typed, {len(ours)} in the PGN")
    print("terminal game: ok")


if __name__ == "__main__":
    main()
