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
