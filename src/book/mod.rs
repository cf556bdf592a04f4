//! Polyglot opening books: the format's position key, its 16-byte entries, reading a book
//! file and choosing a move from it.
//!
//! An entry is `key` (u64), `move` (u16), `weight` (u16) and `learn` (u32), big-endian,
//! sorted by key. Moves are `to | from << 6 | promotion << 12` with squares a1 = 0 to
//! h8 = 63 and promotions knight = 1 to queen = 4; castling is "king takes own rook",
//! as Ferrum's own moves are.

mod random;

use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{Color, Move, PieceType, Square, Wing};
use random::RANDOM;
use std::path::Path;

/// Offsets of the groups of keys in `RANDOM`.
const CASTLING: usize = 768;
const EN_PASSANT: usize = 772;
const TURN: usize = 780;

/// Bytes in one entry of a book file.
pub const ENTRY_BYTES: usize = 16;

/// The Polyglot key of a position.
pub fn polyglot_key(board: &Board) -> u64 {
    let mut key = 0;
    for sq in Square::all() {
        if let Some(piece) = board.piece_at(sq) {
            // Polyglot counts black pawn 0, white pawn 1, black knight 2, ...
            let kind = 2 * piece.kind().index() + usize::from(piece.color() == Color::White);
            key ^= RANDOM[64 * kind + sq.index()];
        }
    }
    let rights = board.castling();
    for (i, (color, wing)) in [
        (Color::White, Wing::King),
        (Color::White, Wing::Queen),
        (Color::Black, Wing::King),
        (Color::Black, Wing::Queen),
    ]
    .into_iter()
    .enumerate()
    {
        if rights.has(color, wing) {
            key ^= RANDOM[CASTLING + i];
        }
    }
    // The en-passant file counts only when a pawn of the side to move stands beside the
    // pawn that just advanced two squares (whether or not the capture is legal).
    if let Some(target) = board.en_passant() {
        let us = board.side_to_move();
        let victim = target.en_passant_victim();
        let mut pawns = board.pieces(us, PieceType::Pawn);
        let beside = Iterator::any(&mut pawns, |sq| {
            sq.rank() == victim.rank() && sq.file().abs_diff(victim.file()) == 1
        });
        if beside {
            key ^= RANDOM[EN_PASSANT + target.file() as usize];
        }
    }
    if board.side_to_move() == Color::White {
        key ^= RANDOM[TURN];
    }
    key
}

/// A move in the book's 16 bits.
pub fn encode_move(m: Move) -> u16 {
    let promotion = m.promotion().map_or(0, |p| p.index() as u16);
    m.to().index() as u16 | (m.from().index() as u16) << 6 | promotion << 12
}

/// The legal move that a book's 16 bits stand for, if there is one.
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let (to, from, promotion) = (raw & 63, (raw >> 6) & 63, (raw >> 12) & 7);
    legal_moves(board).iter().copied().find(|m| {
        m.to().index() as u16 == to
            && m.from().index() as u16 == from
            && m.promotion().map_or(0, |p| p.index() as u16) == promotion
    })
}

/// One entry of a book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0; ENTRY_BYTES];
        bytes[..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.mv.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }

    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Entry {
        let field = |range: std::ops::Range<usize>| {
            bytes[range]
                .iter()
                .fold(0u64, |n, &b| (n << 8) | u64::from(b))
        };
        Entry {
            key: field(0..8),
            mv: field(8..10) as u16,
            weight: field(10..12) as u16,
            learn: field(12..16) as u32,
        }
    }
}

/// A book move found for a position, with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
}

/// A Polyglot book, read whole into memory.
#[derive(Debug)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads and checks a book file: its size a whole number of entries, its keys in order.
    pub fn open(path: &Path) -> Result<Book, String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read the book {}: {e}", path.display()))?;
        Book::from_bytes(&bytes).map_err(|e| format!("the book {} {e}", path.display()))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.is_empty() {
            return Err("is empty".into());
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(format!(
                "is not a Polyglot book: {} bytes is not a whole number of {ENTRY_BYTES}-byte entries",
                bytes.len()
            ));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|chunk| Entry::from_bytes(chunk.try_into().expect("16-byte chunk")))
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(format!(
                "is not a Polyglot book: its keys are out of order at entry {}",
                i + 2
            ));
        }
        Ok(Book { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries stored for a key (binary search: keys are sorted).
    pub fn entries(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's legal moves in a position, heaviest first; entries that are not legal
    /// moves here (a key collision or a damaged book) are left out.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let mut moves: Vec<BookMove> = self
            .entries(polyglot_key(board))
            .iter()
            .filter_map(|e| {
                decode_move(board, e.mv).map(|mv| BookMove {
                    mv,
                    weight: e.weight,
                })
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// The move to play: the heaviest (`best`), or one drawn with chances in proportion to
    /// the weights, `draw` being a uniform random number. Moves of weight 0 are never
    /// played, as in Polyglot; `allowed` (if not empty) limits the choice.
    pub fn choose(
        &self,
        board: &Board,
        best: bool,
        allowed: &[Move],
        draw: u64,
    ) -> Option<BookMove> {
        let moves: Vec<BookMove> = self
            .moves(board)
            .into_iter()
            .filter(|m| m.weight > 0 && (allowed.is_empty() || allowed.contains(&m.mv)))
            .collect();
        if best {
            return moves.first().copied();
        }
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = draw % total;
        moves.into_iter().find(|m| {
            let w = u64::from(m.weight);
            if pick < w {
                return true;
            }
            pick -= w;
            false
        })
    }
}

/// Writes entries as a book file, sorted by key (then by move) as readers expect.
pub fn write_book(path: &Path, entries: &mut [Entry]) -> Result<(), String> {
    entries.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight), e.mv));
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;

    fn after(moves: &str) -> Board {
        let mut board = Board::startpos();
        for text in moves.split_whitespace() {
            let m = board.parse_move(text).unwrap();
            board.make_move(m);
        }
        board
    }

    /// The keys the Polyglot specification gives for its reference positions.
    #[test]
    fn reference_keys() {
        for (moves, key) in [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ] {
            assert_eq!(polyglot_key(&after(moves)), key, "after '{moves}'");
        }
    }

    #[test]
    fn moves_round_trip_including_castling_and_promotion() {
        let board = Board::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for m in legal_moves(&board).iter().copied() {
            assert_eq!(decode_move(&board, encode_move(m)), Some(m), "{m}");
        }
        let castle = board.parse_move("e1g1").unwrap();
        // King takes own rook: e1 (4) to h1 (7).
        assert_eq!(encode_move(castle), 7 | 4 << 6);
        let promote = board.parse_move("b7b8n").unwrap();
        assert_eq!(encode_move(promote) >> 12, 1);
    }

    fn book_of(entries: &[(u64, u16, u16)]) -> Book {
        let mut entries: Vec<Entry> = entries
            .iter()
            .map(|&(key, mv, weight)| Entry {
                key,
                mv,
                weight,
                learn: 0,
            })
            .collect();
        entries.sort();
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        Book::from_bytes(&bytes).unwrap()
    }

    #[test]
    fn lookup_and_choice() {
        let start = Board::startpos();
        let key = polyglot_key(&start);
        let code = |text: &str| encode_move(start.parse_move(text).unwrap());
        let book = book_of(&[
            (key, code("e2e4"), 30),
            (key, code("d2d4"), 10),
            (key, code("g1f3"), 0),
            (key - 1, code("c2c4"), 50),
            (key + 1, code("b2b3"), 50),
            // Not a legal move in the start position (a collision): left out.
            (key, code("e2e4") ^ (1 << 6), 99),
        ]);
        let moves: Vec<String> = book
            .moves(&start)
            .iter()
            .map(|m| m.mv.to_string())
            .collect();
        assert_eq!(moves, ["e2e4", "d2d4", "g1f3"]);
        assert_eq!(book.choose(&start, true, &[], 0).unwrap().weight, 30);
        // Draws 0..29 pick e2e4, 30..39 d2d4; weight 0 is never played.
        let pick = |draw| {
            book.choose(&start, false, &[], draw)
                .unwrap()
                .mv
                .to_string()
        };
        assert_eq!(pick(0), "e2e4");
        assert_eq!(pick(29), "e2e4");
        assert_eq!(pick(30), "d2d4");
        assert_eq!(pick(39), "d2d4");
        assert_eq!(pick(40), "e2e4");
        let d4 = start.parse_move("d2d4").unwrap();
        assert_eq!(book.choose(&start, true, &[d4], 0).unwrap().mv, d4);
        let nf3 = start.parse_move("g1f3").unwrap();
        assert_eq!(book.choose(&start, false, &[nf3], 7), None);
        assert!(book.moves(&after("e2e4")).is_empty());
    }

    #[test]
    fn damaged_books_are_refused() {
        assert!(Book::from_bytes(&[]).unwrap_err().contains("empty"));
        assert!(
            Book::from_bytes(&[0; 24])
                .unwrap_err()
                .contains("whole number")
        );
        let entry = |key: u64| Entry {
            key,
            mv: 0,
            weight: 1,
            learn: 0,
        };
        let bytes: Vec<u8> = [entry(5), entry(9), entry(7)]
            .iter()
            .flat_map(|e| e.to_bytes())
            .collect();
        assert!(
            Book::from_bytes(&bytes)
                .unwrap_err()
                .contains("out of order at entry 3")
        );
    }
}
