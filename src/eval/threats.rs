//! Threats: pieces attacked by enemy pawns or by lesser enemy pieces, pieces left hanging,
//! and pawn pushes that would attack a piece.

use super::Acc;
use super::attacks::Attacks;
use super::weights::*;
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType};

pub fn threats<A: Acc>(board: &Board, attacks: &Attacks, acc: &mut A) {
    let occupied = board.occupied();
    for us in Color::ALL {
        let them = !us;
        let (u, t) = (us.index(), them.index());
        let targets = board.color(them) & !board.kind(PieceType::King);
        let by = |kind: PieceType| attacks.by_kind[u][kind.index()];
        let minors = by(PieceType::Knight) | by(PieceType::Bishop);
        for (attackers, table) in [
            (by(PieceType::Pawn), THREAT_BY_PAWN),
            (minors, THREAT_BY_MINOR),
            (by(PieceType::Rook), THREAT_BY_ROOK),
        ] {
            let attacked = targets & attackers;
            if attacked.is_empty() {
                continue;
            }
            for kind in [
                PieceType::Pawn,
                PieceType::Knight,
                PieceType::Bishop,
                PieceType::Rook,
                PieceType::Queen,
            ] {
                let count = (attacked & board.kind(kind)).count();
                if count > 0 {
                    acc.add(us, table.at(kind.index()), count as i32);
                }
            }
        }
        let pieces = targets & !board.kind(PieceType::Pawn);
        let hanging = pieces & attacks.all[u] & !attacks.all[t];
        if hanging.any() {
            acc.add(us, HANGING.single(), hanging.count() as i32);
        }
        // Pushes, single and double, to squares enemy pawns do not hold and that are
        // defended or not attacked at all.
        let third = Bitboard::rank(if us == Color::White { 2 } else { 5 });
        let single = board.pieces(us, PieceType::Pawn).forward(us) & !occupied;
        let pushes = single | ((single & third).forward(us) & !occupied);
        let safe = pushes
            & !attacks.by_kind[t][PieceType::Pawn.index()]
            & (attacks.all[u] | !attacks.all[t]);
        let threatened = safe.pawn_attacks(us) & pieces;
        if threatened.any() {
            acc.add(us, PAWN_PUSH_THREAT.single(), threatened.count() as i32);
        }
    }
}
