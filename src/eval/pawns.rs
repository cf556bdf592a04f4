//! Pawn structure (isolated, doubled, backward, connected and candidate pawns), cached by
//! the pawn key in a small table per search thread, and the passed pawns, whose worth
//! depends on the pieces too and so is computed at every evaluation.

use super::attacks::{Attacks, pawn_defenders};
use super::masks::{adjacent_files, attack_span, distance, front, passed_span};
use super::weights::*;
use super::{Acc, Phased, Sum};
use crate::attacks::rook_attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};

/// The pawn structure's terms for both sides; returns the passed pawns of both.
pub fn structure<A: Acc>(board: &Board, acc: &mut A) -> Bitboard {
    let mut passed = Bitboard::EMPTY;
    for us in Color::ALL {
        let them = !us;
        let ours = board.pieces(us, PieceType::Pawn);
        let theirs = board.pieces(them, PieceType::Pawn);
        let their_attacks = theirs.pawn_attacks(them);
        for sq in ours {
            let rank = sq.relative(us).rank() as usize;
            let ahead = front(us, sq);
            let open = usize::from((ahead & theirs).is_empty());
            let neighbours = adjacent_files(sq.file()) & ours;
            // Own pawns beside or behind on the adjacent files: those that can defend it.
            let helpers = neighbours & !attack_span(us, sq);
            let defenders = pawn_defenders(board, us, sq);
            let phalanx = neighbours & Bitboard::rank(sq.rank());

            if (ahead & ours).any() {
                acc.add(us, DOUBLED.single(), 1);
            }
            if neighbours.is_empty() {
                acc.add(us, ISOLATED.at(open), 1);
            } else if helpers.is_empty() && their_attacks.contains(stop_square(us, sq)) {
                acc.add(us, BACKWARD.at(open), 1);
            }
            if (defenders | phalanx).any() {
                acc.add(us, CONNECTED.at(rank), 1);
            }
            let stoppers = passed_span(us, sq) & theirs;
            if stoppers.is_empty() && (ahead & ours).is_empty() {
                passed |= sq.bb();
            } else if open == 1 && helpers.count() >= stoppers.count() {
                acc.add(us, CANDIDATE.at(rank), 1);
            }
        }
    }
    passed
}

/// The square in front of a pawn of `color` on `sq` (pawns never stand on the last rank).
#[inline(always)]
fn stop_square(color: Color, sq: Square) -> Square {
    sq.offset(if color == Color::White { 8 } else { -8 })
}

/// The passed pawns' terms: by rank, with their path, their support, the kings' distances
/// and rooks behind them.
pub fn passers<A: Acc>(board: &Board, passed: Bitboard, attacks: &Attacks, acc: &mut A) {
    let occupied = board.occupied();
    for us in Color::ALL {
        let them = !us;
        let our_king = board.king_square(us);
        let their_king = board.king_square(them);
        let their_pieces =
            board.color(them) & !board.kind(PieceType::Pawn) & !board.kind(PieceType::King);
        for sq in passed & board.pieces(us, PieceType::Pawn) {
            let rank = sq.relative(us).rank() as i32;
            let r = rank as usize;
            let stop = stop_square(us, sq);
            let path = front(us, sq);
            acc.add(us, PASSED.at(r), 1);
            if (path & occupied).is_empty() {
                acc.add(us, PASSED_FREE.at(r), 1);
            }
            if !occupied.contains(stop) && !attacks.all[them.index()].contains(stop) {
                acc.add(us, PASSED_SAFE.at(r), 1);
            }
            if pawn_defenders(board, us, sq).any() {
                acc.add(us, PASSED_PROTECTED.single(), 1);
            }
            let weight = (rank - 2).max(0);
            if weight > 0 {
                acc.add(
                    us,
                    PASSED_KING_OWN.at(distance(our_king, stop) as usize),
                    weight,
                );
                acc.add(
                    us,
                    PASSED_KING_ENEMY.at(distance(their_king, stop) as usize),
                    weight,
                );
            }
            let behind = front(them, sq) & rook_attacks(sq, occupied);
            if (behind & board.pieces(us, PieceType::Rook)).any() {
                acc.add(us, PASSED_ROOK_BEHIND.single(), 1);
            }
            if their_pieces.is_empty() && (path & board.color(us)).is_empty() {
                // The rule of the square: the king catches the pawn only if it reaches the
                // promotion square first (a pawn on its first move goes two squares).
                let promotion = Square::new(sq.file(), if us == Color::White { 7 } else { 0 });
                let pawn_moves = (7 - rank).min(5) + i32::from(board.side_to_move() == them);
                if distance(their_king, promotion) > pawn_moves {
                    acc.add(us, PASSED_UNSTOPPABLE.single(), 1);
                }
            }
        }
    }
}

/// What the pawn table keeps for one pawn structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    key: u64,
    /// The structure's terms and the pawns' material and placement, White minus Black.
    pub score: Phased,
    pub passed: Bitboard,
}

/// The pawn structures seen recently, by pawn key. The structure changes with few moves,
/// so most evaluations find theirs here.
pub struct PawnTable {
    entries: Vec<PawnEntry>,
    pub probes: u64,
    pub hits: u64,
}

impl PawnTable {
    /// 8,192 entries of 24 bytes: 192 KiB, well inside the L2 cache.
    const ENTRIES: usize = 1 << 13;

    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![PawnEntry::default(); Self::ENTRIES],
            probes: 0,
            hits: 0,
        }
    }

    /// The entry for `board`'s pawns, computed and stored if it is not there. (A board
    /// without pawns has key 0, which the empty entries already describe.)
    #[inline]
    pub fn probe(&mut self, board: &Board) -> PawnEntry {
        let key = board.pawn_key();
        let slot = &mut self.entries[key as usize & (Self::ENTRIES - 1)];
        self.probes += 1;
        if slot.key == key {
            self.hits += 1;
            return *slot;
        }
        let mut sum = Sum::default();
        let passed = structure(board, &mut sum);
        *slot = PawnEntry {
            key,
            score: sum.0 + super::psqt::pawns(board),
            passed,
        };
        *slot
    }
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}
