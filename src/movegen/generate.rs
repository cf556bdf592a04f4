//! Legal move generation with check and pin masks: no move is made to test legality, so perft
//! can count the moves at its last ply without playing them.
//!
//! Four selections share one generator: all moves, noisy moves (captures and all
//! promotions, for quiescence and the capture stages of the move picker), quiet moves
//! (everything else, castling included; noisy and quiet split the legal moves exactly) and
//! the quiet moves that give check (where pruning has ruled out the other quiet ones).

use super::movelist::MoveList;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::board::{Board, CheckInfo};
use crate::types::{Bitboard, Color, Move, MoveKind, PieceType, Square, Wing};

const ALL: u8 = 0;
const NOISY: u8 = 1;
const QUIET: u8 = 2;
const QUIET_CHECKS: u8 = 3;

/// Every legal move.
#[inline]
pub fn legal_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    generate::<ALL>(board, &mut list, None);
    list
}

/// Appends the legal captures and promotions (including under-promotions).
pub fn noisy_moves(board: &Board, list: &mut MoveList) {
    generate::<NOISY>(board, list, None);
}

/// Appends the legal moves that neither capture nor promote.
pub fn quiet_moves(board: &Board, list: &mut MoveList) {
    generate::<QUIET>(board, list, None);
}

/// Appends the legal quiet moves that give check, `info` being the position's, in the
/// order `quiet_moves` would give them.
pub fn quiet_checks(board: &Board, info: &CheckInfo, list: &mut MoveList) {
    generate::<QUIET_CHECKS>(board, list, Some(info));
}

/// Pushes a move for each target, marking the ones that land on an enemy piece as captures.
#[inline(always)]
fn push_targets(list: &mut MoveList, from: Square, targets: Bitboard, enemies: Bitboard) {
    for to in targets & enemies {
        list.push(Move::new(from, to, MoveKind::CAPTURE));
    }
    for to in targets & !enemies {
        list.push(Move::new(from, to, MoveKind::QUIET));
    }
}

fn generate<const KIND: u8>(board: &Board, list: &mut MoveList, checks: Option<&CheckInfo>) {
    // Where a piece of `kind` on `from` may go: only to give check, or anywhere.
    let wanted = |kind: PieceType, from: Square| match checks {
        Some(info) if KIND == QUIET_CHECKS => info.check_targets(kind, from),
        _ => Bitboard::FULL,
    };
    let us = board.side_to_move();
    let them = !us;
    let occupied = board.occupied();
    let enemies = board.color(them);
    let king = board.king_square(us);
    let checkers = board.checkers();

    let targets = match KIND {
        ALL => !board.color(us),
        NOISY => enemies,
        _ => !occupied,
    };

    // The king may not step onto an attacked square. It is lifted from the board for the
    // test so that it cannot shield its target square from a slider behind it.
    let without_king = occupied ^ king.bb();
    for to in king_attacks(king) & targets & wanted(PieceType::King, king) {
        if !board.is_attacked(to, them, without_king) {
            let kind = if enemies.contains(to) {
                MoveKind::CAPTURE
            } else {
                MoveKind::QUIET
            };
            list.push(Move::new(king, to, kind));
        }
    }
    if checkers.more_than_one() {
        return;
    }

    // In single check, other pieces must capture the checker or block its line.
    let check_mask = if checkers.any() {
        between(king, checkers.lsb()) | checkers
    } else {
        Bitboard::FULL
    };
    let pinned = board.pinned();
    let targets = targets & check_mask;

    for from in board.pieces(us, PieceType::Knight) & !pinned {
        let targets = targets & wanted(PieceType::Knight, from);
        push_targets(list, from, knight_attacks(from) & targets, enemies);
    }
    // A pinned piece stays on the line through its king and pinner. In check it cannot
    // move at all: that line meets the checker's only at the king.
    let pin_mask = |from: Square| {
        if pinned.contains(from) {
            line(king, from)
        } else {
            Bitboard::FULL
        }
    };
    // A queen is both kinds of slider; its check squares are a queen's.
    let slider = |from: Square| board.piece_at(from).map_or(PieceType::Queen, |p| p.kind());
    for from in board.diagonal_sliders(us) {
        let targets = targets & pin_mask(from) & wanted(slider(from), from);
        push_targets(
            list,
            from,
            bishop_attacks(from, occupied) & targets,
            enemies,
        );
    }
    for from in board.straight_sliders(us) {
        let targets = targets & pin_mask(from) & wanted(slider(from), from);
        push_targets(list, from, rook_attacks(from, occupied) & targets, enemies);
    }

    let pawns = board.pieces(us, PieceType::Pawn);
    if let Some(info) = checks
        && KIND == QUIET_CHECKS
    {
        // Pawns that uncover a check may push anywhere off the line; the others only to
        // the squares where they check.
        let discoverers = info.discoverers();
        let plain = pawns & !pinned & !discoverers;
        let mask = check_mask & info.check_squares(PieceType::Pawn);
        pawn_moves::<QUIET>(board, list, plain, mask);
        for from in pawns & !pinned & discoverers {
            let mask = check_mask & wanted(PieceType::Pawn, from);
            pawn_moves::<QUIET>(board, list, from.bb(), mask);
        }
    } else {
        pawn_moves::<KIND>(board, list, pawns & !pinned, check_mask);
    }
    if checkers.is_empty() {
        for from in pawns & pinned {
            let mask = line(king, from) & wanted(PieceType::Pawn, from);
            pawn_moves::<KIND>(board, list, from.bb(), mask);
        }
    }
    if KIND == ALL || KIND == NOISY {
        en_passant(board, list, king);
    }
    if KIND != NOISY && checkers.is_empty() {
        castling(board, list, king, KIND == QUIET_CHECKS);
    }
}

/// Pushes, double pushes, captures and promotions for `pawns`, landing only inside `mask`
/// (only pushes for `QUIET_CHECKS`).
#[inline(always)]
fn pawn_moves<const KIND: u8>(board: &Board, list: &mut MoveList, pawns: Bitboard, mask: Bitboard) {
    let us = board.side_to_move();
    let empty = !board.occupied();
    let enemies = board.color(!us) & mask;
    let up: i8 = if us == Color::White { 8 } else { -8 };
    let seventh = Bitboard::rank(Square::new(0, 6).relative(us).rank());
    let third = Bitboard::rank(Square::new(0, 2).relative(us).rank());
    let (promoting, others) = (pawns & seventh, pawns & !seventh);

    // Set-wise captures towards the a-file (west) and the h-file (east).
    let west = |set: Bitboard| Bitboard((set & !Bitboard::FILE_A).forward(us).0 >> 1);
    let east = |set: Bitboard| Bitboard((set & !Bitboard::FILE_H).forward(us).0 << 1);

    if KIND == ALL || KIND == NOISY {
        for to in west(others) & enemies {
            list.push(Move::new(to.offset(1 - up), to, MoveKind::CAPTURE));
        }
        for to in east(others) & enemies {
            list.push(Move::new(to.offset(-1 - up), to, MoveKind::CAPTURE));
        }
        if promoting.any() {
            for to in promoting.forward(us) & empty & mask {
                push_promotions(list, to.offset(-up), to, false);
            }
            for to in west(promoting) & enemies {
                push_promotions(list, to.offset(1 - up), to, true);
            }
            for to in east(promoting) & enemies {
                push_promotions(list, to.offset(-1 - up), to, true);
            }
        }
    }
    if KIND != NOISY {
        let single = others.forward(us) & empty;
        let double = (single & third).forward(us) & empty;
        for to in single & mask {
            list.push(Move::new(to.offset(-up), to, MoveKind::QUIET));
        }
        for to in double & mask {
            list.push(Move::new(to.offset(-2 * up), to, MoveKind::DOUBLE_PUSH));
        }
    }
}

#[inline(always)]
fn push_promotions(list: &mut MoveList, from: Square, to: Square, capture: bool) {
    for kind in [
        PieceType::Queen,
        PieceType::Knight,
        PieceType::Rook,
        PieceType::Bishop,
    ] {
        list.push(Move::new(from, to, MoveKind::promotion(kind, capture)));
    }
}

/// En-passant captures, each tested by removing both pawns: the capture can uncover an
/// attack on the king along the rank, which pin masks do not see.
fn en_passant(board: &Board, list: &mut MoveList, king: Square) {
    let Some(target) = board.en_passant() else {
        return;
    };
    let us = board.side_to_move();
    for from in pawn_attacks(!us, target) & board.pieces(us, PieceType::Pawn) {
        if en_passant_is_safe(board, from, target, king) {
            list.push(Move::new(from, target, MoveKind::EN_PASSANT));
        }
    }
}

/// Whether the king on `king` is safe after the pawn on `from` captures en passant on `target`.
pub(super) fn en_passant_is_safe(
    board: &Board,
    from: Square,
    target: Square,
    king: Square,
) -> bool {
    let us = board.side_to_move();
    let them = !us;
    let victim = target.en_passant_victim();
    let occupied = board.occupied() ^ from.bb() ^ victim.bb() ^ target.bb();
    !((bishop_attacks(king, occupied) & board.diagonal_sliders(them)).any()
        || (rook_attacks(king, occupied) & board.straight_sliders(them)).any()
        || (knight_attacks(king) & board.pieces(them, PieceType::Knight)).any()
        || (pawn_attacks(us, king) & board.pieces(them, PieceType::Pawn) & !victim.bb()).any())
}

/// Castling under the Chess960 rules, which include standard chess: every square the king
/// and rook pass over or land on is empty (but for the two of them), and no square the king
/// passes over or lands on is attacked. Only called when not in check. With `checks_only`,
/// only the castling moves that give check (with the rook).
fn castling(board: &Board, list: &mut MoveList, king: Square, checks_only: bool) {
    for wing in Wing::ALL {
        if let Some(rook) = castling_rook(board, wing, king) {
            let m = Move::new(king, rook, MoveKind::CASTLE);
            if !checks_only || board.gives_check(m) {
                list.push(m);
            }
        }
    }
}

/// The rook that castles on `wing` if castling there is legal now (not in check assumed).
pub(super) fn castling_rook(board: &Board, wing: Wing, king: Square) -> Option<Square> {
    let us = board.side_to_move();
    let rook = board.castling().rook_square(us, wing)?;
    let path = board.castling_path(us, wing);
    if (path.empty & board.occupied()).any() {
        return None;
    }
    // Without the rook, an enemy rook behind it on the first rank may attack the king's
    // target square (Chess960 only).
    let occupied = board.occupied() ^ king.bb() ^ rook.bb();
    let safe = path
        .king
        .into_iter()
        .all(|sq| !board.is_attacked(sq, !us, occupied));
    safe.then_some(rook)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quiet checks are exactly the quiet moves that give check, in the same order,
    /// with checks of every kind: direct, discovered, by castling, from pinned pieces.
    #[test]
    fn quiet_checks_are_the_quiet_moves_that_check() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "3k4/1P6/8/4B3/8/8/8/1R2K3 w - - 0 1",
            "4k3/8/4K3/3P4/8/8/8/4R3 w - - 0 1",
            "4k3/8/8/4P3/8/8/8/4R1K1 w - - 0 1",
            "7k/8/8/4N3/8/2B5/8/6K1 w - - 0 1",
            "7k/8/8/8/3P4/8/1B6/6K1 w - - 0 1",
            "k7/8/2N5/8/8/8/6Q1/K7 w - - 0 1",
            "3qk3/8/8/8/1B6/8/3R4/3K4 w - - 0 1",
            "4k3/8/8/8/4q3/8/4R3/4K3 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let info = board.check_info();
            let (mut quiet, mut checks) = (MoveList::new(), MoveList::new());
            quiet_moves(&board, &mut quiet);
            quiet_checks(&board, &info, &mut checks);
            let expected: Vec<Move> = quiet
                .iter()
                .copied()
                .filter(|&m| board.gives_check(m))
                .collect();
            assert_eq!(
                checks.iter().copied().collect::<Vec<_>>(),
                expected,
                "{fen}"
            );
        }
    }
}
