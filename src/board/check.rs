//! Whether a move gives check, worked out before it is made (for pruning decisions).

use super::Board;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::types::{Bitboard, Move, PieceType, Square, Wing};

/// What it takes to check the opponent's king from the current position: for each piece
/// kind the squares it would check from, and our pieces whose leaving uncovers a check.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    king: Square,
    squares: [Bitboard; 6],
    discoverers: Bitboard,
}

impl CheckInfo {
    /// The squares from which a piece of `kind` attacks the king.
    #[inline(always)]
    pub fn check_squares(&self, kind: PieceType) -> Bitboard {
        self.squares[kind.index()]
    }

    /// Our pieces that uncover a check from a slider behind them when they step off its line.
    #[inline(always)]
    pub fn discoverers(&self) -> Bitboard {
        self.discoverers
    }

    /// The squares where a piece of `kind` moving from `from` gives check (castling, en
    /// passant and promotions aside, see `Board::gives_check`).
    #[inline(always)]
    pub fn check_targets(&self, kind: PieceType, from: Square) -> Bitboard {
        let direct = self.squares[kind.index()];
        if self.discoverers.contains(from) {
            direct | !line(self.king, from)
        } else {
            direct
        }
    }
}

impl Board {
    /// The check squares and discovered-check candidates for the side to move.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let king = self.king_square(!us);
        let occupied = self.occupied();
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let mut discoverers = Bitboard::EMPTY;
        let snipers = (bishop_attacks(king, Bitboard::EMPTY) & self.diagonal_sliders(us))
            | (rook_attacks(king, Bitboard::EMPTY) & self.straight_sliders(us));
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                discoverers |= blockers & self.color(us);
            }
        }
        CheckInfo {
            king,
            squares: [
                pawn_attacks(!us, king),
                knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers,
        }
    }

    /// `gives_check` with the position's `CheckInfo` computed beforehand: two set lookups
    /// for ordinary moves.
    #[inline]
    pub fn gives_check_with(&self, m: Move, info: &CheckInfo) -> bool {
        if m.is_special() {
            return self.gives_check(m);
        }
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        info.check_targets(piece.kind(), m.from()).contains(m.to())
    }

    /// Whether the legal move `m` checks the opponent's king, directly or by discovery.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let king = self.king_square(!us);
        let (from, to) = (m.from(), m.to());
        let mut occupied = self.occupied() ^ from.bb();

        if m.is_castle() {
            // Only the rook can check, from its new square.
            let wing = if to > from { Wing::King } else { Wing::Queen };
            occupied ^= to.bb();
            occupied |= wing.king_target(us).bb() | wing.rook_target(us).bb();
            return rook_attacks(wing.rook_target(us), occupied).contains(king);
        }
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        occupied |= to.bb();
        if m.is_en_passant() {
            occupied ^= to.en_passant_victim().bb();
        }
        let attacks = match m.promotion().unwrap_or(piece.kind()) {
            PieceType::Pawn => pawn_attacks(us, to),
            PieceType::Knight => knight_attacks(to),
            PieceType::Bishop => bishop_attacks(to, occupied),
            PieceType::Rook => rook_attacks(to, occupied),
            PieceType::Queen => queen_attacks(to, occupied),
            PieceType::King => king_attacks(to),
        };
        if attacks.contains(king) {
            return true;
        }
        // Discovered: a slider of ours behind the square the piece left.
        let others = !(from.bb() | to.bb());
        let diagonal: Bitboard = self.diagonal_sliders(us) & others;
        let straight: Bitboard = self.straight_sliders(us) & others;
        (bishop_attacks(king, occupied) & diagonal).any()
            || (rook_attacks(king, occupied) & straight).any()
    }
}
