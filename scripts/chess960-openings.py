#!/usr/bin/env python3
"""The 960 Chess960 start positions as EPD (Shredder castling), in an order drawn from SEED,
for fastchess's `-variant fischerandom` (scripts/match.sh with VARIANT=fischerandom).

    python3 scripts/chess960-openings.py [SEED] > chess960.epd
"""
import random
import sys

import chess

numbers = list(range(960))
random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 960).shuffle(numbers)
for n in numbers:
    board = chess.Board.from_chess960_pos(n)
    print(" ".join(board.shredder_fen().split()[:4]))
