#!/usr/bin/env python3
"""Game soak: many short games at fast and awkward time controls, counting every way Ferrum
can fail a GUI: illegal moves, time losses, crashes, hangs and disconnects.

    python3 scripts/soak.py target/release/ferrum [--games 1000] [--concurrency 2]
    python3 scripts/soak.py target/release/ferrum --quick      # the short version CI runs
    python3 scripts/soak.py target/release/ferrum --seed 2 --logs DIR  # Ferrum's log of each failed game

Games cycle through every combination of protocol (UCI, XBoard), time control (1+0.01,
40 moves in 2 s, 10 ms a move, 5,000 nodes a move), pondering (off, on), Threads (1, 2)
and opponent (Ferrum itself, then each Debian engine found in /usr/games). Each game starts
from the initial position after six random plies (seeded), and draws Ferrum's setting for
it from its own seed: a Hash size (1 to 256 MiB), the Syzygy tables
of tests/data (one game in three), and a Chess960 start (one game in four, against itself,
Stockfish or Ethereal: the engines here that play it). Every fifth game ends with an
analysis of a position of the game by Ferrum (three lines over UCI, one over XBoard),
whose lines must be legal and, over UCI, begin with different moves.
A reply later than the clock allows by more than --margin seconds is a time loss; no reply
for 10 s beyond that is a hang. Exits 1 if Ferrum failed in any way, and prints a summary
line per failure kind and per configuration. Needs python-chess (pip install chess).
"""
import argparse
import asyncio
import contextlib
import itertools
import logging
import os
import random
import sys
import time
from collections import Counter

import chess
import chess.engine

# Debian engines: command, protocol, options, and whether it honours a node limit. Not
# Fairy-Max 5.0b: it declares setboard=0, and python-chess refuses to drive an XBoard
# engine without setboard, so none of its games ever started.
OPPONENTS = {
    "stockfish": (["/usr/games/stockfish"], "uci", {"Hash": 16}, True),
    "ethereal": (["/usr/games/ethereal-chess"], "uci", {"Hash": 16}, True),
    "toga2": (["/usr/games/toga2"], "uci", {"Hash": 16}, False),
    "glaurung": (["/usr/games/glaurung"], "uci", {"Hash": 16}, True),
    "phalanx": (["/usr/games/phalanx"], "xboard", {}, False),
    "gnuchess": (["/usr/games/gnuchess", "-x"], "xboard", {}, False),
}

TIME_CONTROLS = ["1+0.01", "40/2", "movetime 10ms", "nodes 5000"]
FAILURES = ("illegal", "time", "crash", "hang", "disconnect", "analysis")
# The engines here that play Chess960.
CHESS960 = {"self", "stockfish", "ethereal"}
SYZYGY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "syzygy")


def extras_for(rng, opponent):
    """Ferrum's setting for one game, drawn from the game's own random numbers. XBoard
    GUIs send `memory` at a game's start with no ping before `go`: a new table must not
    be made on the first move's clock (docs/reliability.md)."""
    return {
        "hash": rng.choice([1, 16, 64, 256]),
        "syzygy": rng.random() < 1 / 3,
        "chess960": opponent in CHESS960 and rng.random() < 1 / 4,
        "analysis": False,
    }


def describe(extras):
    words = [f"hash {extras['hash']}"]
    words += [name for name in ("syzygy", "chess960", "analysis") if extras[name]]
    return ", ".join(words)


class Side:
    """One engine in one game, with its clock."""

    def __init__(self, name, command, protocol, options, is_ferrum):
        self.name, self.command, self.protocol = name, command, protocol
        self.options, self.is_ferrum = options, is_ferrum
        self.engine = self.transport = None
        self.clock = 0.0
        self.moves_in_period = 0
        self.ponder = False


async def open_side(side):
    popen = chess.engine.popen_uci if side.protocol == "uci" else chess.engine.popen_xboard
    side.transport, side.engine = await popen(side.command)
    if side.options:
        await side.engine.configure(side.options)
    if side.protocol == "uci":
        # As a GUI does before it starts a clock: `isready` after `setoption`, which waits
        # for a new Hash table (python-chess's `play` would otherwise send it on the first
        # move's clock: about a second for 256 MiB where memory is slow to fault in).
        await side.engine.ping()


def limit_for(tc, side, other, board):
    """The limit for the side to move, its clock as the controller keeps it."""
    if tc == "movetime 10ms":
        return chess.engine.Limit(time=0.01)
    if tc == "nodes 5000":
        return chess.engine.Limit(nodes=5000)
    white, black = (side, other) if board.turn == chess.WHITE else (other, side)
    if tc == "1+0.01":
        return chess.engine.Limit(white_clock=max(white.clock, 0.001), black_clock=max(black.clock, 0.001),
                                  white_inc=0.01, black_inc=0.01)
    return chess.engine.Limit(white_clock=max(white.clock, 0.001), black_clock=max(black.clock, 0.001),
                              remaining_moves=40 - side.moves_in_period)


def allowed(tc, side):
    """Seconds the side to move may take."""
    if tc == "movetime 10ms":
        return 0.01
    if tc == "nodes 5000":
        return 5.0
    return side.clock


def after_move(tc, side, spent):
    if tc == "1+0.01":
        side.clock += 0.01 - spent
    elif tc == "40/2":
        side.clock -= spent
        side.moves_in_period += 1
        if side.moves_in_period == 40:
            side.clock += 2.0
            side.moves_in_period = 0


async def analyse(side, board, multipv):
    """Ferrum's analysis of `board`: None if it holds, else what is wrong."""
    info = await side.engine.analyse(board, chess.engine.Limit(time=0.1), multipv=multipv)
    lines = info if multipv else [info]
    expected = min(multipv or 1, board.legal_moves.count())
    if len(lines) != expected:
        return f"{len(lines)} lines, expected {expected}"
    firsts = []
    for line in lines:
        pv = line.get("pv") or []
        if not pv:
            return "a line without moves"
        replay = board.copy()
        for move in pv:
            if move not in replay.legal_moves:
                return f"illegal move {move} in a line from {board.fen()}"
            replay.push(move)
        firsts.append(pv[0])
    if len(set(firsts)) != len(firsts):
        return f"a first move twice: {[m.uci() for m in firsts]}"
    return None


def opening(rng, chess960):
    """Six random plies from the initial position or a Chess960 start, drawn again where
    they end the game (game 456 of `--seed 6` drew the fool's mate)."""
    while True:
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(6):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            return board


async def play(config, ferrum, args, rng, extras):
    protocol, tc, ponder, threads, opponent = config
    def options(threads, hash_size=16):
        return ({"Hash": hash_size, "Threads": threads} if protocol == "uci"
                else {"memory": hash_size, "cores": threads})
    mine = options(threads, extras["hash"])
    if extras["syzygy"]:
        mine["SyzygyPath" if protocol == "uci" else "egtpath syzygy"] = SYZYGY
    log = ["--log", extras["log"]] if extras["log"] else []
    me = Side("Ferrum", [ferrum] + log + [protocol], protocol, mine, True)
    # Never more searching threads than cores while Ferrum is to move: a pondering engine
    # searches all the time, and on an overcommitted machine the side to move loses tens
    # of milliseconds a move to the other's threads (more than a 1+0.01 increment). Where
    # Ferrum's pondering threads and the opponent's would not fit, the opponent neither
    # ponders nor uses a second thread. It still moves while Ferrum ponders on all its
    # threads, so a second Ferrum in that seat is an opponent: its failures are listed,
    # not counted.
    cores = os.cpu_count() or 1
    me.ponder = ponder
    if opponent == "self":
        fits = not ponder or 2 * threads <= cores
        name = "Ferrum (2)" if fits else "Ferrum (2, beside pondering threads)"
        other = Side(name, [ferrum, protocol], protocol, options(threads if fits else 1), fits)
        other.ponder = ponder and fits
    else:
        command, proto, opponent_options, _ = OPPONENTS[opponent]
        other = Side(opponent, command, proto, opponent_options, False)
        other.ponder = ponder and threads + 1 <= cores
    board = opening(rng, extras["chess960"])
    white, black = (me, other) if rng.random() < 0.5 else (other, me)
    for side in (white, black):
        side.clock = 2.0 if tc == "40/2" else 1.0
    failure = ending = None
    try:
        for side in (white, black):
            try:
                await open_side(side)
            except Exception as e:
                if side.is_ferrum:
                    return "crash", f"failed to start: {e!r}", board
                return None, f"not played: {side.name} failed to start", board
        while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
            side, other_side = (white, black) if board.turn == chess.WHITE else (black, white)
            limit = limit_for(tc, side, other_side, board)
            # Pondering only where the protocol supports it with this limit.
            use_ponder = side.ponder and (side.protocol == "uci" or tc in ("1+0.01", "40/2"))
            start = time.monotonic()
            try:
                # A copy: python-chess keeps the board it is given to recognise a ponder
                # hit, and with the game's own board, moved on, it took the predicted reply
                # at a game's end for a hit, sent no `stop`, and read the ponder search's
                # `bestmove` as the end of the analysis that followed.
                result = await asyncio.wait_for(side.engine.play(board.copy(), limit, ponder=use_ponder),
                                                allowed(tc, side) + args.margin + 10.0)
            except asyncio.TimeoutError:
                failure, ending = "hang", f"{side.name}: no move within {allowed(tc, side) + args.margin + 10:.1f} s"
            except chess.engine.EngineTerminatedError:
                failure, ending = "crash", f"{side.name}: process ended"
            except (chess.engine.EngineError, BrokenPipeError, ConnectionError) as e:
                failure, ending = "disconnect", f"{side.name}: {e!r}"
            if failure:
                break
            spent = time.monotonic() - start
            if result.resigned:
                ending = f"{side.name} resigns"
                break
            if result.move is None or result.move not in board.legal_moves:
                failure, ending = "illegal", f"{side.name}: illegal move {result.move} in {board.fen()}"
                break
            if spent > allowed(tc, side) + args.margin:
                failure, ending = "time", f"{side.name}: {spent:.3f} s used, {allowed(tc, side):.3f} s allowed"
                break
            after_move(tc, side, spent)
            if args.verbose:
                print(f"  {board.ply() + 1:3} {side.name:10} {result.move} {spent * 1000:6.1f} ms, "
                      f"clock {side.clock * 1000:7.1f} ms", flush=True)
            board.push(result.move)
        else:
            outcome = board.outcome(claim_draw=True)
            ending = outcome.termination.name.lower() if outcome else f"{args.max_plies} plies"
        if failure is None and extras["analysis"]:
            # A position from the game's middle, with the engine as the game left it.
            position = board.copy()
            while position.ply() > 6 and (position.ply() > 40 or position.is_game_over()):
                position.pop()
            try:
                wrong = await asyncio.wait_for(analyse(me, position, 3 if protocol == "uci" else None),
                                               10.0)
            except asyncio.TimeoutError:
                failure, ending = "hang", "Ferrum: no analysis within 10 s"
            except chess.engine.EngineTerminatedError:
                failure, ending = "crash", "Ferrum: process ended in analysis"
            except (chess.engine.EngineError, BrokenPipeError, ConnectionError) as e:
                failure, ending = "disconnect", f"Ferrum: {e!r}"
            else:
                if wrong:
                    failure, ending = "analysis", f"Ferrum: {wrong}"
    finally:
        for side in (white, black):
            if side.engine is not None:
                try:
                    await asyncio.wait_for(side.engine.quit(), 5.0)
                except Exception:
                    side.transport.kill()
                    if side.is_ferrum and failure is None:
                        failure, ending = "hang", f"{side.name}: did not quit"
                code = side.transport.get_returncode()
                if side.is_ferrum and failure is None and code not in (0, None):
                    failure, ending = "crash", f"{side.name}: exit code {code}"
    # Only Ferrum's failures count; an opponent's ends the game and is reported.
    if failure is not None and not any(side.is_ferrum and ending.startswith(side.name + ":")
                                       for side in (white, black)):
        return None, f"opponent failure ({failure}): {ending}", board
    return failure, ending, board


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ferrum")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="32 self-play games: each configuration against itself once")
    parser.add_argument("--opponents", default="all", help="'self', 'all' (self and every Debian engine found), or a comma list")
    parser.add_argument("--margin", type=float, default=0.25, help="seconds of overrun that still count as on time")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", type=int, help="play only game N of the schedule (to repeat a failure)")
    parser.add_argument("--verbose", action="store_true", help="print every move with its time and clock")
    parser.add_argument("--logs", help="a directory for Ferrum's log of each game (--log), kept where it failed")
    args = parser.parse_args()
    # python-chess warns of every XBoard feature it does not know (sigterm=0, say).
    logging.getLogger("chess.engine").setLevel(logging.ERROR)

    if args.quick:
        args.games, args.opponents = 32, "self"
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    if args.opponents == "all":
        opponents = ["self"] + [name for name, (command, *_) in OPPONENTS.items()
                                if os.path.exists(command[0])]
    else:
        opponents = args.opponents.split(",")
    configs = list(itertools.product(["uci", "xboard"], TIME_CONTROLS, [False, True], [1, 2], opponents))
    # XBoard has no node limit, nor do some engines: those games use 10 ms a move instead.
    def nodes_ok(protocol, opponent):
        return protocol == "uci" and (opponent == "self" or OPPONENTS[opponent][3])
    configs = [(p, "movetime 10ms" if tc == "nodes 5000" and not nodes_ok(p, o) else tc, po, t, o)
               for p, tc, po, t, o in configs]
    schedule = [configs[i % len(configs)] for i in range(args.games)]
    games = [args.only - 1] if args.only else range(len(schedule))

    failures, by_config = Counter(), Counter()
    opponent_failures = not_played = 0
    semaphore = asyncio.Semaphore(args.concurrency)
    started = time.monotonic()

    async def run(index, config):
        nonlocal opponent_failures, not_played
        rng = random.Random(args.seed * 100003 + index)
        extras = extras_for(rng, config[4])
        extras["analysis"] = index % 5 == 4
        extras["log"] = os.path.join(args.logs, f"game-{index + 1}.log") if args.logs else None
        async with semaphore:
            failure, ending, board = await play(config, args.ferrum, args, rng, extras)
        label = "{} {} ponder {} threads {} vs {} ({})".format(
            config[0], config[1], "on" if config[2] else "off", config[3], config[4], describe(extras))
        if extras["log"] and not failure:
            with contextlib.suppress(FileNotFoundError):
                os.remove(extras["log"])
        if failure:
            failures[failure] += 1
            by_config[label] += 1
            print(f"FAIL game {index + 1} ({label}): {failure}: {ending}", flush=True)
        elif ending.startswith(("not played", "opponent failure")):
            if ending.startswith("not played"):
                not_played += 1
            else:
                opponent_failures += 1
            print(f"game {index + 1} ({label}): {ending}", flush=True)
        elif args.quick or (index + 1) % 50 == 0:
            print(f"game {index + 1} ({label}): {ending} after {board.ply()} plies", flush=True)

    await asyncio.gather(*(run(i, schedule[i]) for i in games))
    print(f"{len(games) - not_played} games in {time.monotonic() - started:.0f} s, opponents {','.join(opponents)}"
          f" ({not_played} not played: the opponent failed to start)")
    print("Ferrum failures: " + ", ".join(f"{kind} {failures[kind]}" for kind in FAILURES))
    print(f"opponent failures (not counted): {opponent_failures}")
    for label, count in by_config.most_common():
        print(f"  {count} in {label}")
    return 1 if sum(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
