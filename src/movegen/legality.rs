//! Legality of a single move that did not come from the generator (a transposition-table
//! move or a killer from another node), without generating the position's moves.

use super::generate::{castling_rook, en_passant_is_safe};
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceType, Wing};

impl Board {
    /// Whether `m` is exactly one of the moves `legal_moves` generates here, flags included.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color() != us || m == Move::NONE {
            return false;
        }
        let king = self.king_square(us);
        let enemies = self.color(!us);
        let occupied = self.occupied();

        if m.is_castle() {
            let wing = if to > from { Wing::King } else { Wing::Queen };
            return piece.kind() == PieceType::King
                && !self.in_check()
                && self.castling().rook_square(us, wing) == Some(to)
                && castling_rook(self, wing, king) == Some(to);
        }
        if !m.kind().is_defined()
            || self.color(us).contains(to)
            || enemies.contains(to) != (m.is_capture() && !m.is_en_passant())
        {
            return false;
        }

        // Geometry and flags for the piece that moves.
        let reachable = match piece.kind() {
            PieceType::Pawn => {
                let last_rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
                if m.is_promotion() != last_rank.contains(to) {
                    return false;
                }
                if m.is_en_passant() {
                    return self.en_passant() == Some(to)
                        && pawn_attacks(us, from).contains(to)
                        && en_passant_is_safe(self, from, to, king);
                }
                let one = from.bb().forward(us) & !occupied;
                let third = Bitboard::rank(if us == Color::White { 2 } else { 5 });
                if m.is_double_push() {
                    (one & third).forward(us) & !occupied
                } else if m.is_capture() {
                    pawn_attacks(us, from)
                } else {
                    one
                }
            }
            _ if m.kind() != MoveKind::QUIET && m.kind() != MoveKind::CAPTURE => return false,
            PieceType::Knight => knight_attacks(from),
            PieceType::Bishop => bishop_attacks(from, occupied),
            PieceType::Rook => rook_attacks(from, occupied),
            PieceType::Queen => queen_attacks(from, occupied),
            PieceType::King => king_attacks(from),
        };
        if !reachable.contains(to) {
            return false;
        }

        // Safety of the king.
        if piece.kind() == PieceType::King {
            return !self.is_attacked(to, !us, occupied ^ from.bb());
        }
        let checkers = self.checkers();
        if checkers.more_than_one() {
            return false;
        }
        if let Some(checker) = checkers.into_iter().next()
            && !(between(king, checker) | checker.bb()).contains(to)
        {
            return false;
        }
        !self.pinned().contains(from) || line(king, from).contains(to)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Board;
    use crate::movegen::legal_moves;
    use crate::types::Move;

    /// Every one of the 65,536 move codes, against the generator, in varied positions.
    #[test]
    fn agrees_with_the_generator() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "4k3/8/8/8/8/8/8/r3K2R w K - 0 1",
            "1r2k3/8/8/8/8/8/8/RK6 w A - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
            "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/3N4/4K2q w - - 0 1",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let legal: Vec<u16> = legal_moves(&board).iter().map(|m| m.bits()).collect();
            for bits in 0..=u16::MAX {
                let m = Move::from_bits(bits);
                assert_eq!(
                    board.is_legal(m),
                    legal.contains(&bits),
                    "{m} {:?} in {fen}",
                    m.kind()
                );
            }
        }
    }
}
