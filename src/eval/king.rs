//! King safety: the pawn shelter in front of the king and the enemy pawns storming it, and
//! the danger from enemy pieces, counted in attack units (pieces attacking the king's zone
//! and how much of it, safe checks, weak squares beside the king) and read from a table, so
//! that the tuner can give the usual steep, non-linear shape to the danger of many
//! attackers.

use super::Acc;
use super::attacks::Attacks;
use super::masks::file;
use super::weights::*;
use crate::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};

/// Attack units for a safe check by a knight, bishop, rook or queen.
const CHECK_UNITS: [i32; 6] = [0, 3, 2, 3, 3, 0];

pub fn safety<A: Acc>(board: &Board, attacks: &Attacks, acc: &mut A) {
    let occupied = board.occupied();
    for us in Color::ALL {
        let them = !us;
        let (u, t) = (us.index(), them.index());
        let king = board.king_square(us);
        shelter(board, us, king, acc);

        let mut units = attacks.king_units[u];
        // Squares an enemy piece may check from without being taken.
        let safe = !attacks.all[u] & !board.color(them);
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        for (kind, from) in [
            (PieceType::Knight, knight_attacks(king)),
            (PieceType::Bishop, diagonal),
            (PieceType::Rook, straight),
            (PieceType::Queen, diagonal | straight),
        ] {
            if (from & safe & attacks.by_kind[t][kind.index()]).any() {
                units += CHECK_UNITS[kind.index()];
            }
        }
        // Squares by the king that the enemy attacks and we defend at most with the king or
        // queen, once.
        let weak = attacks.king_zone[u]
            & attacks.all[t]
            & !attacks.twice[u]
            & (!attacks.all[u]
                | attacks.by_kind[u][PieceType::King.index()]
                | attacks.by_kind[u][PieceType::Queen.index()]);
        units += weak.count() as i32;
        if board.pieces(them, PieceType::Queen).is_empty() {
            units /= 2;
        }
        acc.add(us, KING_DANGER.at(units.clamp(0, 31) as usize), 1);
    }
}

/// Shelter and storm on the king's file and the files beside it (kept off the edge files,
/// so that three files are always counted).
fn shelter<A: Acc>(board: &Board, us: Color, king: Square, acc: &mut A) {
    let ours = board.pieces(us, PieceType::Pawn);
    let theirs = board.pieces(!us, PieceType::Pawn);
    let king_rank = king.relative(us).rank();
    // Ranks from the king's up, from our side.
    let ahead = match us {
        Color::White => Bitboard(!0u64 << (8 * king_rank)),
        Color::Black => Bitboard(!0u64 >> (8 * king_rank)),
    };
    let centre = king.file().clamp(1, 6);
    for f in centre - 1..=centre + 1 {
        let edge = f.min(7 - f) as usize;
        // The relative rank of the pawn nearest our side, 0 if none.
        let nearest = |pawns: Bitboard| {
            let on_file = (pawns & file(f) & ahead).0;
            match (on_file, us) {
                (0, _) => 0,
                (bits, Color::White) => bits.trailing_zeros() as usize / 8,
                (bits, Color::Black) => bits.leading_zeros() as usize / 8,
            }
        };
        acc.add(us, KING_SHELTER.at(8 * edge + nearest(ours)), 1);
        acc.add(us, KING_STORM.at(8 * edge + nearest(theirs)), 1);
    }
}
