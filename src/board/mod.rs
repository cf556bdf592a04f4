//! The position: piece bitboards with a mailbox beside them, side to move, castling rights,
//! en-passant square, move counters, an incrementally updated Zobrist key and the history of
//! earlier positions for unmaking moves and spotting repetitions.

mod check;
mod draw;
mod fen;
mod makemove;
mod notation;
mod see;
pub mod zobrist;

pub use check::CheckInfo;
pub use fen::{FenError, START_FEN, placement};
pub use see::SEE_VALUE;

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::types::{
    Bitboard, CastlingRights, Color, Move, PHASE_WEIGHT, Piece, PieceType, Square, Wing,
};
use std::fmt;

/// The squares one castling move needs, fixed by where its king and rook start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CastlingPath {
    /// Squares the king and rook pass over or land on, which must be empty (but for the
    /// two of them).
    pub empty: Bitboard,
    /// Squares the king passes over or lands on, which must not be attacked.
    pub king: Bitboard,
}

/// What `make_move` saves so that `unmake_move` can restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    castling: CastlingRights,
    en_passant: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    pawn_key: u64,
    non_pawn_keys: [u64; 2],
    checkers: Bitboard,
}

/// A chess position with its history. Moves given to `make_move` must be legal; text from
/// outside goes through `Board::from_fen` and `rules::Notation::parse_move`, which check it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    /// Set only when a pawn of the side to move could capture there, so that positions
    /// which differ only in a useless en-passant square share one key.
    en_passant: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    /// Zobrist key of the pawns alone, for the evaluation's pawn table.
    pawn_key: u64,
    /// Zobrist keys of each colour's other pieces, for the search's correction history.
    non_pawn_keys: [u64; 2],
    /// Pieces giving check to the side to move.
    checkers: Bitboard,
    /// Game phase from the material on the board (see `types::MAX_PHASE`).
    phase: i32,
    /// Chess960 notation: Shredder-FEN castling and king-takes-rook castling moves.
    chess960: bool,
    /// For each square, the castling rights that survive a move from or to it.
    castling_keep: [u8; 64],
    /// For each colour and wing, the squares castling needs (see `CastlingPath`).
    castling_paths: [[CastlingPath; 2]; 2],
    history: Vec<Undo>,
}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("the start position is valid")
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    #[inline(always)]
    pub fn kind(&self, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()]
    }

    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The material on the board in pawns, both sides together (pawn 1, knight and
    /// bishop 3, rook 5, queen 9): 78 at the start.
    pub fn material(&self) -> i32 {
        let count = |kind| self.kind(kind).count() as i32;
        count(PieceType::Pawn)
            + 3 * (count(PieceType::Knight) + count(PieceType::Bishop))
            + 5 * count(PieceType::Rook)
            + 9 * count(PieceType::Queen)
    }

    /// Pieces of one kind and colour.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Bishops and queens of `color`: the pieces that attack along diagonals.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.kind(PieceType::Bishop) | self.kind(PieceType::Queen)) & self.color(color)
    }

    /// Rooks and queens of `color`: the pieces that attack along ranks and files.
    #[inline(always)]
    pub fn straight_sliders(&self, color: Color) -> Bitboard {
        (self.kind(PieceType::Rook) | self.kind(PieceType::Queen)) & self.color(color)
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceType::King).lsb()
    }

    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The squares castling on `wing` needs; meaningful while `color` holds that right.
    #[inline(always)]
    pub fn castling_path(&self, color: Color, wing: Wing) -> CastlingPath {
        self.castling_paths[color.index()][wing as usize]
    }

    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Game phase: 0 with bare kings and pawns, `types::MAX_PHASE` with the starting pieces
    /// (more after promotions).
    #[inline(always)]
    pub fn phase(&self) -> i32 {
        self.phase
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches move and FEN notation between standard chess and Chess960 (the position is
    /// the same either way).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Number of moves made since the position was set up.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// All pieces of either colour that attack `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceType::Pawn))
            | (knight_attacks(sq) & self.kind(PieceType::Knight))
            | (king_attacks(sq) & self.kind(PieceType::King))
            | (bishop_attacks(sq, occupied)
                & (self.kind(PieceType::Bishop) | self.kind(PieceType::Queen)))
            | (rook_attacks(sq, occupied)
                & (self.kind(PieceType::Rook) | self.kind(PieceType::Queen)))
    }

    /// Whether any piece of `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        (pawn_attacks(!by, sq) & self.pieces(by, PieceType::Pawn)).any()
            || (knight_attacks(sq) & self.pieces(by, PieceType::Knight)).any()
            || (king_attacks(sq) & self.pieces(by, PieceType::King)).any()
            || (bishop_attacks(sq, occupied) & self.diagonal_sliders(by)).any()
            || (rook_attacks(sq, occupied) & self.straight_sliders(by)).any()
    }

    /// The square of the king of `color` and those next to it.
    #[inline]
    pub fn king_zone(&self, color: Color) -> Bitboard {
        let king = self.king_square(color);
        king_attacks(king) | king.bb()
    }

    /// How many enemy knights, bishops, rooks and queens attack the king of `color` or a
    /// square next to it (a queen once for each way it moves that does).
    pub fn king_zone_attackers(&self, color: Color) -> u32 {
        let zone = self.king_zone(color);
        let occupied = self.occupied();
        let them = !color;
        let hits = |attacks: Bitboard| u32::from((attacks & zone).any());
        self.pieces(them, PieceType::Knight)
            .map(|sq| hits(knight_attacks(sq)))
            .chain(
                self.diagonal_sliders(them)
                    .map(|sq| hits(bishop_attacks(sq, occupied))),
            )
            .chain(
                self.straight_sliders(them)
                    .map(|sq| hits(rook_attacks(sq, occupied))),
            )
            .sum()
    }

    /// Pieces of the side to move that shield their own king from an enemy slider.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        let ksq = self.king_square(us);
        let occupied = self.occupied();
        let snipers = (rook_attacks(ksq, Bitboard::EMPTY) & self.straight_sliders(!us))
            | (bishop_attacks(ksq, Bitboard::EMPTY) & self.diagonal_sliders(!us));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(ksq, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.color(us);
            }
        }
        pinned
    }

    /// True when the current position occurred before with the same side to move, looking
    /// back no further than the last capture or pawn move.
    pub fn is_repetition(&self) -> bool {
        self.repetitions() > 0
    }

    /// How many times the current position occurred before (same side to move, same
    /// castling and en-passant rights), back to the last irreversible move.
    pub fn repetitions(&self) -> usize {
        let reach = (self.halfmove as usize).min(self.history.len());
        self.history
            .iter()
            .rev()
            .take(reach)
            .skip(1)
            .step_by(2)
            .filter(|u| u.key == self.key)
            .count()
    }

    /// The Zobrist key of the pawns alone.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The pawn key computed from scratch; equals `pawn_key()` whenever the board is
    /// consistent.
    pub fn compute_pawn_key(&self) -> u64 {
        let z = zobrist::keys();
        self.xor_of_keys(self.occupied(), |p, sq| z.pawn(p, sq))
    }

    /// The Zobrist key of `color`'s pieces other than pawns (its king included).
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color.index()]
    }

    /// The non-pawn keys computed from scratch.
    pub fn compute_non_pawn_keys(&self) -> [u64; 2] {
        let z = zobrist::keys();
        Color::ALL.map(|color| self.xor_of_keys(self.color(color), |p, sq| z.non_pawn(p, sq)))
    }

    /// The XOR of `key(piece, square)` over the pieces on `squares`: the from-scratch
    /// computations of the incremental keys.
    fn xor_of_keys(&self, squares: Bitboard, key: impl Fn(Piece, Square) -> u64) -> u64 {
        squares
            .into_iter()
            .filter_map(|sq| self.mailbox[sq.index()].map(|p| key(p, sq)))
            .fold(0, |k, x| k ^ x)
    }

    /// The key computed from scratch; equals `key()` whenever the board is consistent.
    pub fn compute_key(&self) -> u64 {
        let z = zobrist::keys();
        let mut key = z.side(self.side) ^ z.castling(self.castling);
        if let Some(ep) = self.en_passant {
            key ^= z.en_passant(ep);
        }
        key ^ self.xor_of_keys(self.occupied(), |p, sq| z.piece(p, sq))
    }

    /// The phase computed from scratch; equals `phase()` whenever the board is consistent.
    pub fn compute_phase(&self) -> i32 {
        PieceType::ALL
            .iter()
            .map(|&kind| PHASE_WEIGHT[kind.index()] * self.kind(kind).count() as i32)
            .sum()
    }

    /// Checks that the bitboards, mailbox, keys, phase and checkers agree; describes the first
    /// inconsistency found.
    pub fn check_consistency(&self) -> Result<(), String> {
        for sq in Square::all() {
            let from_bitboards = PieceType::ALL.iter().find_map(|&kind| {
                Color::ALL.iter().find_map(|&color| {
                    self.pieces(color, kind)
                        .contains(sq)
                        .then_some(Piece::new(color, kind))
                })
            });
            if from_bitboards != self.mailbox[sq.index()] {
                return Err(format!("square {sq}: bitboards and mailbox disagree"));
            }
        }
        let kinds = self.by_kind.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        if kinds != self.occupied() || (self.color(Color::White) & self.color(Color::Black)).any() {
            return Err("colour and kind bitboards disagree".into());
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from a fresh computation".into());
        }
        if self.pawn_key != self.compute_pawn_key() {
            return Err("incremental pawn key differs from a fresh computation".into());
        }
        if self.non_pawn_keys != self.compute_non_pawn_keys() {
            return Err("incremental non-pawn keys differ from a fresh computation".into());
        }
        if self.phase != self.compute_phase() {
            return Err("incremental phase differs from a fresh computation".into());
        }
        let checkers = self.attackers_to(self.king_square(self.side), self.occupied())
            & self.color(!self.side);
        if checkers != self.checkers {
            return Err("stored checkers are wrong".into());
        }
        Ok(())
    }

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bb();
        self.by_kind[piece.kind().index()] |= bb;
        self.by_color[piece.color().index()] |= bb;
        self.mailbox[sq.index()] = Some(piece);
        self.phase += PHASE_WEIGHT[piece.kind().index()];
    }

    /// Moves `piece` from `from` to the empty square `to`: `remove` and `put` in one, with
    /// no change of material or phase.
    #[inline(always)]
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = from.bb() | to.bb();
        self.by_kind[piece.kind().index()] ^= bb;
        self.by_color[piece.color().index()] ^= bb;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
    }

    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bb();
        self.by_kind[piece.kind().index()] ^= bb;
        self.by_color[piece.color().index()] ^= bb;
        self.mailbox[sq.index()] = None;
        self.phase -= PHASE_WEIGHT[piece.kind().index()];
    }
}

/// An ASCII diagram with White at the bottom, then the FEN and the key.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let rule = " +---+---+---+---+---+---+---+---+";
        writeln!(f, "{rule}")?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = self
                    .piece_at(Square::new(file, rank))
                    .map_or(' ', Piece::char);
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, "{rule}")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(f, "Key: {:016X}", self.key)?;
        if self.in_check() {
            let checkers: Vec<String> = self.checkers.map(|s| s.to_string()).collect();
            write!(f, "\nCheckers: {}", checkers.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_pieces_that_reach_the_kings_neighbourhood() {
        let count = |fen: &str, color| Board::from_fen(fen).unwrap().king_zone_attackers(color);
        assert_eq!(count(crate::board::START_FEN, Color::White), 0);
        // The bishop reaches g7 and the h-rook h8; the e-rook and the knight on c3 fall short.
        let fen = "6k1/8/5B2/8/7R/2N5/8/4R1K1 b - - 0 1";
        assert_eq!(count(fen, Color::Black), 2);
        assert_eq!(count(fen, Color::White), 0);
        // A queen on h6 reaches h7 along the file and g7 along the diagonal: two.
        assert_eq!(count("6k1/8/7Q/8/8/8/8/6K1 b - - 0 1", Color::Black), 2);
        // On h4 behind its own pawn on h6 the file is shut, and neither diagonal arrives.
        assert_eq!(count("6k1/8/7P/8/7Q/8/8/6K1 b - - 0 1", Color::Black), 0);
    }
}
