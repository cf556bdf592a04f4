//! Making and unmaking moves, with the Zobrist key updated as pieces move.

use super::{Board, CastlingPath, Undo, zobrist};
use crate::attacks::{between, bishop_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use crate::types::{Bitboard, CastlingRights, Color, Move, Piece, PieceType, Square, Wing};

impl Board {
    /// Plays a legal move (from `movegen`); `unmake_move` takes it back.
    pub fn make_move(&mut self, m: Move) {
        let z = zobrist::keys();
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let mut undo = self.snapshot(m);

        let mut key = self.key ^ z.side_flip();
        if let Some(ep) = self.en_passant.take() {
            key ^= z.en_passant(ep);
        }
        self.halfmove = self.halfmove.saturating_add(1);

        if m.is_castle() {
            // `to` is the rook. Lift both pieces before placing either: in Chess960 the
            // king's or rook's target may be the other's start square.
            let wing = if to > from { Wing::King } else { Wing::Queen };
            let (king, rook) = (
                Piece::new(us, PieceType::King),
                Piece::new(us, PieceType::Rook),
            );
            let (king_to, rook_to) = (wing.king_target(us), wing.rook_target(us));
            self.remove(king, from);
            self.remove(rook, to);
            self.put(king, king_to);
            self.put(rook, rook_to);
            let moved = z.piece(king, from)
                ^ z.piece(king, king_to)
                ^ z.piece(rook, to)
                ^ z.piece(rook, rook_to);
            key ^= moved;
            self.non_pawn_keys[us.index()] ^= moved;
        } else {
            let Some(piece) = self.mailbox[from.index()] else {
                unreachable!("make_move({m}): no piece on {from}");
            };
            if m.is_capture() {
                // The en-passant victim stands beside the mover, one rank behind `to`.
                let victim_sq = if m.is_en_passant() {
                    to.en_passant_victim()
                } else {
                    to
                };
                let Some(victim) = self.mailbox[victim_sq.index()] else {
                    unreachable!("make_move({m}): nothing to capture on {victim_sq}");
                };
                self.remove(victim, victim_sq);
                key ^= z.piece(victim, victim_sq);
                self.pawn_key ^= z.pawn(victim, victim_sq);
                self.non_pawn_keys[(!us).index()] ^= z.non_pawn(victim, victim_sq);
                undo.captured = Some(victim);
                self.halfmove = 0;
            }
            let landed = match m.promotion() {
                Some(kind) => {
                    let promoted = Piece::new(us, kind);
                    self.remove(piece, from);
                    self.put(promoted, to);
                    promoted
                }
                None => {
                    self.shift(piece, from, to);
                    piece
                }
            };
            key ^= z.piece(piece, from) ^ z.piece(landed, to);
            self.pawn_key ^= z.pawn(piece, from) ^ z.pawn(landed, to);
            self.non_pawn_keys[us.index()] ^= z.non_pawn(piece, from) ^ z.non_pawn(landed, to);

            if piece.kind() == PieceType::Pawn {
                self.halfmove = 0;
                if m.is_double_push() {
                    let passed =
                        Square::from_index_unchecked((from.index() + to.index()) as u32 / 2);
                    if (pawn_attacks(us, passed) & self.pieces(!us, PieceType::Pawn)).any() {
                        self.en_passant = Some(passed);
                        key ^= z.en_passant(passed);
                    }
                }
            }
        }

        let keep = self.castling_keep[from.index()] & self.castling_keep[to.index()];
        if self.castling.bits() & !keep != 0 {
            key ^= z.castling(self.castling);
            self.castling.retain(keep);
            key ^= z.castling(self.castling);
        }

        self.side = !us;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.key = key;
        let king = self.king_square(!us);
        self.checkers = if m.is_special() {
            self.attackers_to(king, self.occupied()) & self.color(us)
        } else {
            self.checkers_after(from, to, king)
        };
        self.history.push(undo);
        #[cfg(debug_assertions)]
        self.verify(m);
    }

    /// The pieces checking the king on `king` after a plain move (no castling, en passant or
    /// promotion) from `from` to `to` by the side that just moved: the piece itself, or a
    /// slider behind the square it left. Cheaper than all the attackers of the king, as
    /// most moves leave no line to the king. Without a branch on the moved piece's kind,
    /// which no predictor can guess.
    #[inline(always)]
    fn checkers_after(&self, from: Square, to: Square, king: Square) -> Bitboard {
        let us = !self.side;
        let occupied = self.occupied();
        // Before the move the king was not in check, so a pawn or knight giving check now
        // is the one that moved.
        let leapers = (pawn_attacks(!us, king) & self.pieces(us, PieceType::Pawn))
            | (knight_attacks(king) & self.pieces(us, PieceType::Knight));
        let sliders = (bishop_attacks(king, occupied) & self.diagonal_sliders(us))
            | (rook_attacks(king, occupied) & self.straight_sliders(us));
        // A slider other than the moved piece checks only through the square left.
        let uncovered = if line(king, from).is_empty() {
            to.bb()
        } else {
            Bitboard::FULL
        };
        (leapers & to.bb()) | (sliders & uncovered)
    }

    /// The key after `m`, closely enough for prefetching its table entry: changes of
    /// castling rights and en-passant squares are left out.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let z = zobrist::keys();
        let mut key = self.key ^ z.side_flip();
        let (from, to) = (m.from(), m.to());
        if let (Some(piece), false) = (self.mailbox[from.index()], m.is_castle()) {
            let landed = m
                .promotion()
                .map_or(piece, |kind| Piece::new(piece.color(), kind));
            key ^= z.piece(piece, from) ^ z.piece(landed, to);
            if let Some(victim) = self.mailbox[to.index()] {
                key ^= z.piece(victim, to);
            }
        }
        key
    }

    /// Passes the move to the opponent (for null-move pruning); not allowed in check.
    /// The halfmove clock restarts so that no repetition is counted across the null move.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        let z = zobrist::keys();
        self.history.push(self.snapshot(Move::NONE));
        self.key ^= z.side_flip();
        if let Some(ep) = self.en_passant.take() {
            self.key ^= z.en_passant(ep);
        }
        self.halfmove = 0;
        self.side = !self.side;
        #[cfg(debug_assertions)]
        self.verify(Move::NONE);
    }

    /// Takes back the last move made (or null move); does nothing if there is none.
    pub fn unmake_move(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let m = undo.mv;
        if m == Move::NONE {
            self.side = !self.side;
            self.restore(&undo);
            #[cfg(debug_assertions)]
            self.verify(m);
            return;
        }
        let us = !self.side;
        let (from, to) = (m.from(), m.to());

        if m.is_castle() {
            let wing = if to > from { Wing::King } else { Wing::Queen };
            let (king, rook) = (
                Piece::new(us, PieceType::King),
                Piece::new(us, PieceType::Rook),
            );
            self.remove(king, wing.king_target(us));
            self.remove(rook, wing.rook_target(us));
            self.put(king, from);
            self.put(rook, to);
        } else {
            let Some(landed) = self.mailbox[to.index()] else {
                unreachable!("unmake_move({m}): no piece on {to}");
            };
            if m.is_promotion() {
                self.remove(landed, to);
                self.put(Piece::new(us, PieceType::Pawn), from);
            } else {
                self.shift(landed, to, from);
            }
            if let Some(victim) = undo.captured {
                let victim_sq = if m.is_en_passant() {
                    to.en_passant_victim()
                } else {
                    to
                };
                self.put(victim, victim_sq);
            }
        }

        self.side = us;
        self.restore(&undo);
        #[cfg(debug_assertions)]
        self.verify(m);
    }

    /// Debug builds check the board after every change: cheap invariants always, and with
    /// the `invariants` feature everything `check_consistency` knows (keys, phase, checkers).
    #[cfg(debug_assertions)]
    fn verify(&self, m: Move) {
        let kinds = self
            .by_kind
            .iter()
            .fold(crate::types::Bitboard::EMPTY, |a, &b| a | b);
        assert!(
            kinds == self.occupied()
                && (self.color(Color::White) & self.color(Color::Black)).is_empty()
                && self.pieces(Color::White, PieceType::King).count() == 1
                && self.pieces(Color::Black, PieceType::King).count() == 1,
            "bitboards broken after {m}: {self:?}"
        );
        for sq in [m.from(), m.to()] {
            let on_boards = self.occupied().contains(sq);
            assert_eq!(
                on_boards,
                self.mailbox[sq.index()].is_some(),
                "{sq} after {m}"
            );
        }
        if cfg!(feature = "invariants")
            && let Err(e) = self.check_consistency()
        {
            panic!("after {m}: {e} in {}", self.to_fen());
        }
    }

    /// The state `unmake_move` needs to take back `m` (the capture is filled in later).
    #[inline(always)]
    fn snapshot(&self, m: Move) -> Undo {
        Undo {
            mv: m,
            captured: None,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            pawn_key: self.pawn_key,
            non_pawn_keys: self.non_pawn_keys,
            checkers: self.checkers,
        }
    }

    /// Puts back the state that `Undo` saved.
    #[inline(always)]
    fn restore(&mut self, undo: &Undo) {
        self.fullmove = undo.fullmove;
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.non_pawn_keys = undo.non_pawn_keys;
        self.checkers = undo.checkers;
    }

    /// Rebuilds what the castling rights fix when the position is set up: the rights that
    /// survive a move touching each square, and the squares each castling move needs.
    pub(super) fn update_castling_tables(&mut self) {
        self.castling_keep = [0b1111; 64];
        for color in Color::ALL {
            let king = self.king_square(color);
            for wing in Wing::ALL {
                if let Some(rook) = self.castling.rook_square(color, wing) {
                    let mask = CastlingRights::mask(color, wing);
                    self.castling_keep[rook.index()] &= !mask;
                    self.castling_keep[king.index()] &= !mask;
                    let (king_to, rook_to) = (wing.king_target(color), wing.rook_target(color));
                    let king_path = between(king, king_to) | king_to.bb();
                    self.castling_paths[color.index()][wing as usize] = CastlingPath {
                        empty: (king_path | between(rook, rook_to) | rook_to.bb())
                            & !(king.bb() | rook.bb()),
                        king: king_path,
                    };
                }
            }
        }
    }
}
