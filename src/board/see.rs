//! Static exchange evaluation: the material outcome of the captures on one square, each side
//! recapturing with its least valuable piece and free to stop when going on would lose.
//! Pins are ignored, as usual: SEE orders and prunes moves, it does not prove anything.

use super::Board;
use crate::attacks::{bishop_attacks, rook_attacks};
use crate::types::{Bitboard, Move, PieceType, Score, Square};

/// Piece values for exchanges, pawn to king. The king's is large so that it is the last to
/// capture, and a capture into a defended square by the king is never counted.
pub const SEE_VALUE: [Score; 6] = [100, 320, 330, 500, 950, 20_000];

impl Board {
    /// The material the side to move gains by `m` and the exchanges that follow on its target
    /// square, in centipawns (negative when it loses material). Castling gains nothing.
    pub fn see(&self, m: Move) -> Score {
        if m.is_castle() {
            return 0;
        }
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else {
            return 0;
        };
        let mut occupied = self.occupied() ^ from.bb();
        let mut gain = [0; 32];
        gain[0] = match self.piece_at(to) {
            Some(victim) => SEE_VALUE[victim.kind().index()],
            None if m.is_en_passant() => {
                occupied ^= to.en_passant_victim().bb();
                SEE_VALUE[PieceType::Pawn.index()]
            }
            None => 0,
        };
        // The value standing on the square, which the next capture wins.
        let mut on_square = SEE_VALUE[mover.kind().index()];
        if let Some(promoted) = m.promotion() {
            let extra = SEE_VALUE[promoted.index()] - SEE_VALUE[PieceType::Pawn.index()];
            gain[0] += extra;
            on_square += extra;
        }

        let diagonal = self.kind(PieceType::Bishop) | self.kind(PieceType::Queen);
        let straight = self.kind(PieceType::Rook) | self.kind(PieceType::Queen);
        let mut attackers = self.attackers_to(to, occupied) & occupied;
        let mut side = !mover.color();
        let mut depth = 0;
        while depth + 1 < gain.len() {
            let ours = attackers & self.color(side);
            let Some((kind, sq)) = self.least_valuable(ours) else {
                break;
            };
            // The king may only take last: not while the other side still attacks the square.
            if kind == PieceType::King && (attackers & self.color(!side)).any() {
                break;
            }
            // gain[d]: the balance for the side making capture d if the exchange ends there.
            depth += 1;
            gain[depth] = on_square - gain[depth - 1];
            on_square = SEE_VALUE[kind.index()];
            occupied ^= sq.bb();
            // Sliders behind the piece that just captured join in (x-rays).
            attackers |=
                (bishop_attacks(to, occupied) & diagonal) | (rook_attacks(to, occupied) & straight);
            attackers &= occupied;
            side = !side;
        }
        // Back up: each side either stops (keeping the balance so far) or captures.
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// The least valuable of `pieces`, with its square. The kinds present are gathered as
    /// bits and the lowest taken, instead of a loop whose exit a predictor must guess.
    #[inline(always)]
    fn least_valuable(&self, pieces: Bitboard) -> Option<(PieceType, Square)> {
        let present = PieceType::ALL
            .iter()
            .enumerate()
            .fold(0u32, |bits, (i, &kind)| {
                bits | u32::from((pieces & self.kind(kind)).any()) << i
            });
        if present == 0 {
            return None;
        }
        let kind = PieceType::ALL[present.trailing_zeros() as usize];
        Some((kind, (pieces & self.kind(kind)).lsb()))
    }

    /// Whether `m` wins at least `threshold` centipawns by static exchange: the same answer
    /// as `see(m) >= threshold`, found with less work. Instead of recording every balance
    /// and backing them up, it tracks only how far the side to capture next is from the
    /// threshold, and stops as soon as one side would rather not go on.
    #[inline]
    pub fn see_ge(&self, m: Move, threshold: Score) -> bool {
        if m.is_special() {
            return self.see(m) >= threshold;
        }
        let (from, to) = (m.from(), m.to());
        let (Some(mover), victim) = (self.piece_at(from), self.piece_at(to)) else {
            return threshold <= 0;
        };
        // The balance above the threshold if the exchange stops after this move...
        let mut margin = victim.map_or(0, |v| SEE_VALUE[v.kind().index()]) - threshold;
        if margin < 0 {
            return false;
        }
        // ...and what is left of it if the opponent then wins the mover for nothing.
        margin = SEE_VALUE[mover.kind().index()] - margin;
        if margin <= 0 {
            return true;
        }

        let diagonal = self.kind(PieceType::Bishop) | self.kind(PieceType::Queen);
        let straight = self.kind(PieceType::Rook) | self.kind(PieceType::Queen);
        let mut occupied = self.occupied() ^ from.bb() ^ to.bb();
        let mut attackers = self.attackers_to(to, occupied);
        let mut side = mover.color();
        // Whether the side that made the first capture reaches the threshold, if the
        // exchange ends now. Each capture below flips it; `margin` is always what the side
        // that captured last stands to lose, measured against the threshold.
        let mut reached = true;
        loop {
            side = !side;
            attackers &= occupied;
            let ours = attackers & self.color(side);
            if ours.is_empty() {
                break;
            }
            let Some((kind, sq)) = self.least_valuable(ours) else {
                break;
            };
            // The king may only take last: not while the other side still attacks the square.
            if kind == PieceType::King {
                return if (attackers & self.color(!side)).any() {
                    reached
                } else {
                    !reached
                };
            }
            reached = !reached;
            // Capturing is worth it for `side` only if the piece it puts on the square can
            // be lost without falling back below what it has.
            margin = SEE_VALUE[kind.index()] - margin;
            if margin < Score::from(reached) {
                break;
            }
            occupied ^= sq.bb();
            // Sliders behind the piece that just captured join in (x-rays).
            attackers |=
                (bishop_attacks(to, occupied) & diagonal) | (rook_attacks(to, occupied) & straight);
        }
        reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str) -> Score {
        let board = Board::from_fen(fen).unwrap();
        board.see(board.parse_move(mv).unwrap())
    }

    #[test]
    fn exchanges() {
        // Undefended pawn.
        assert_eq!(
            see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Pawn defended by a knight, taken by a knight, with x-rays behind both sides.
        assert_eq!(
            see(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            -220
        );
        // Queen takes a pawn defended by a pawn.
        assert_eq!(see("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"), -850);
        // Rook battery against a single defender: RxP, RxR, RxR wins a pawn... and the rook.
        assert_eq!(see("3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // Quiet move onto an attacked square loses the piece.
        assert_eq!(see("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3e4"), -320);
        // QxR, RxQ, KxR: the king may take last...
        assert_eq!(see("3rk3/8/8/8/8/8/3r4/3QK3 w - - 0 1", "d1d2"), 50);
        // ...but not into a square the bishop still covers, so QxR loses the queen for a rook.
        assert_eq!(see("3rk3/8/8/b7/8/8/3r4/3QK3 w - - 0 1", "d1d2"), -450);
        // En passant and promotion.
        assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        assert_eq!(see("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 850);
        assert_eq!(see("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"), 500 + 850);
        assert!(Board::startpos().see_ge(Board::startpos().parse_move("e2e4").unwrap(), 0));
    }

    /// The threshold test agrees with the full exchange, for every legal move of every
    /// position of the perft suite and the positions above, at thresholds around every
    /// difference of piece values.
    #[test]
    fn threshold_test_agrees_with_full_exchange() {
        use crate::movegen::legal_moves;
        let perft = include_str!("../../epd/perft.epd")
            .lines()
            .filter_map(|line| line.split(';').next())
            .map(str::to_owned);
        // Tactical middlegames, where exchanges are long: the first four EPD fields.
        let wac = include_str!("../../epd/wac-revised.epd")
            .lines()
            .map(|line| line.split(' ').take(4).collect::<Vec<_>>().join(" "));
        for fen in [
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "3rk3/8/8/b7/8/8/3r4/3QK3 w - - 0 1",
            "3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1",
        ]
        .map(str::to_owned)
        .into_iter()
        .chain(perft)
        .chain(wac)
        {
            let board = Board::from_fen(fen.trim()).unwrap();
            for &m in legal_moves(&board).iter() {
                let value = board.see(m);
                for threshold in [
                    -1300, -1000, -850, -630, -500, -400, -230, -220, -180, -100, -11, -10, -1, 0,
                    1, 10, 11, 100, 180, 220, 230, 320, 400, 500, 630, 850, 1000, 1300,
                ] {
                    assert_eq!(
                        board.see_ge(m, threshold),
                        value >= threshold,
                        "{m} {threshold} in {fen}"
                    );
                }
            }
        }
    }
}
