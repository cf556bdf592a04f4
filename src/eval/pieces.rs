//! The pieces: mobility by the count of safe squares (recording what each attacks in the
//! evaluation's `Attacks`), and the terms of placement that piece-square tables cannot see:
//! the bishop pair, rooks and queens on open files, rooks on the seventh, outposts, bad
//! bishops and minor pieces sheltered by a pawn.

use super::Acc;
use super::attacks::{Attacks, pawn_defenders};
use super::masks::{attack_span, file, same_colour};
use super::weights::*;
use crate::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType};

/// Attack units a piece adds against the king whose zone it attacks, by kind.
const ATTACKER_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Builds both sides' attacks and adds each piece's mobility: the squares it attacks that
/// are not held by enemy pawns nor blocked by its own pawns or king.
pub fn mobility<A: Acc>(board: &Board, acc: &mut A) -> Attacks {
    let mut attacks = Attacks::new(board);
    let occupied = board.occupied();
    for us in Color::ALL {
        let them = !us;
        let area = !(board.pieces(us, PieceType::Pawn)
            | board.pieces(us, PieceType::King)
            | attacks.by_kind[them.index()][PieceType::Pawn.index()]);
        let zone = attacks.king_zone[them.index()];
        for (kind, table) in [
            (PieceType::Knight, KNIGHT_MOBILITY),
            (PieceType::Bishop, BISHOP_MOBILITY),
            (PieceType::Rook, ROOK_MOBILITY),
            (PieceType::Queen, QUEEN_MOBILITY),
        ] {
            for sq in board.pieces(us, kind) {
                let reach = match kind {
                    PieceType::Knight => knight_attacks(sq),
                    PieceType::Bishop => bishop_attacks(sq, occupied),
                    PieceType::Rook => rook_attacks(sq, occupied),
                    _ => queen_attacks(sq, occupied),
                };
                acc.add(us, table.at((reach & area).count() as usize), 1);
                attacks.record(us, kind, reach);
                let near_king = reach & zone;
                if near_king.any() {
                    attacks.king_units[them.index()] +=
                        ATTACKER_UNITS[kind.index()] + near_king.count() as i32;
                }
            }
        }
    }
    attacks
}

/// The placement terms of each side's pieces.
pub fn placement<A: Acc>(board: &Board, acc: &mut A) {
    let pawns = board.kind(PieceType::Pawn);
    for us in Color::ALL {
        let them = !us;
        let ours = board.pieces(us, PieceType::Pawn);
        let theirs = board.pieces(them, PieceType::Pawn);
        let bishops = board.pieces(us, PieceType::Bishop);
        if bishops.more_than_one() {
            acc.add(us, BISHOP_PAIR.single(), 1);
        }
        for (kind, table) in [(PieceType::Rook, ROOK_FILE), (PieceType::Queen, QUEEN_FILE)] {
            for sq in board.pieces(us, kind) {
                let on_file = file(sq.file());
                if (on_file & ours).is_empty() {
                    acc.add(us, table.at(usize::from((on_file & theirs).is_empty())), 1);
                }
            }
        }
        for sq in board.pieces(us, PieceType::Rook) {
            let seventh = if us == Color::White { 6 } else { 1 };
            let eighth = if us == Color::White { 7 } else { 0 };
            if sq.rank() == seventh
                && (board.king_square(them).rank() == eighth
                    || (theirs & Bitboard::rank(seventh)).any())
            {
                acc.add(us, ROOK_SEVENTH.single(), 1);
            }
        }
        for (kind, table) in [
            (PieceType::Knight, KNIGHT_OUTPOST),
            (PieceType::Bishop, BISHOP_OUTPOST),
        ] {
            for sq in board.pieces(us, kind) {
                let rank = sq.relative(us).rank();
                if (3..=5).contains(&rank) && (attack_span(us, sq) & theirs).is_empty() {
                    let defended = pawn_defenders(board, us, sq).any();
                    acc.add(us, table.at(usize::from(defended)), 1);
                }
                let in_front = sq.bb().forward(us);
                if (in_front & pawns).any() {
                    acc.add(us, MINOR_BEHIND_PAWN.single(), 1);
                }
            }
        }
        for sq in bishops {
            let own = (same_colour(sq) & ours).count() as i32;
            if own > 0 {
                acc.add(us, BAD_BISHOP.single(), own);
            }
        }
    }
}
