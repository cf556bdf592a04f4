//! FEN in and out. Castling may be written `KQkq`, as X-FEN (a file letter where `K`/`Q` would
//! be ambiguous) or as Shredder-FEN (`HAha`). Output uses `KQkq` for standard chess and
//! Shredder-FEN in Chess960 mode. Every malformed input gets a `FenError` naming the field.

use super::Board;
use crate::types::{Bitboard, CastlingRights, Color, Piece, PieceType, Square, Wing};
use std::fmt;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 or 6 space-separated fields.
    FieldCount(usize),
    /// The piece placement does not have 8 ranks.
    RankCount(usize),
    /// A character in the piece placement that is neither a piece letter nor 1-8.
    UnknownPiece(char),
    /// A rank (numbered 1-8) that describes more or fewer than 8 squares.
    RankLength {
        rank: u8,
        squares: usize,
    },
    /// A side without exactly one king.
    KingCount {
        color: Color,
        count: u32,
    },
    PawnOnBackRank(Square),
    SideToMove(String),
    Castling {
        field: String,
        reason: String,
    },
    EnPassant {
        field: String,
        reason: String,
    },
    HalfmoveClock {
        field: String,
        reason: &'static str,
    },
    FullmoveNumber {
        field: String,
        reason: &'static str,
    },
    /// The side that just moved is in check, so its king could be captured.
    OpponentInCheck,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 or 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "piece placement: expected 8 ranks, found {n}"),
            FenError::UnknownPiece(c) => {
                write!(
                    f,
                    "piece placement: '{c}' is not a piece letter or a count of 1-8 squares"
                )
            }
            FenError::RankLength { rank, squares } => {
                write!(
                    f,
                    "piece placement: rank {rank} has {squares} squares, not 8"
                )
            }
            FenError::KingCount { color, count } => {
                write!(
                    f,
                    "piece placement: {count} {} kings, need exactly 1",
                    color_name(*color)
                )
            }
            FenError::PawnOnBackRank(sq) => write!(f, "piece placement: pawn on {sq}"),
            FenError::SideToMove(s) => write!(f, "side to move: '{s}' is not 'w' or 'b'"),
            FenError::Castling { field, reason } => write!(f, "castling '{field}': {reason}"),
            FenError::EnPassant { field, reason } => write!(f, "en passant '{field}': {reason}"),
            FenError::HalfmoveClock { field, reason } => {
                write!(f, "halfmove clock '{field}': {reason}")
            }
            FenError::FullmoveNumber { field, reason } => {
                write!(f, "fullmove number '{field}': {reason}")
            }
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

impl Board {
    /// Parses a 4- or 6-field FEN. A missing halfmove clock and fullmove number read as 0 and
    /// 1; a fullmove number of 0, which some programs write, reads as 1. An en-passant square
    /// that no pawn can capture on is dropped, as it does not change the position.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let &[placement, side, castling, en_passant, ref counters @ ..] = fields.as_slice() else {
            return Err(FenError::FieldCount(fields.len()));
        };
        let (halfmove, fullmove) = match *counters {
            [] => (0, 1),
            [half, full] => (parse_halfmove(half)?, parse_fullmove(full)?),
            _ => return Err(FenError::FieldCount(fields.len())),
        };

        let mut board = Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove,
            fullmove,
            key: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            checkers: Bitboard::EMPTY,
            phase: 0,
            chess960: false,
            castling_keep: [0b1111; 64],
            castling_paths: Default::default(),
            history: Vec::with_capacity(256),
        };
        board.parse_placement(placement)?;
        board.side = side
            .parse()
            .map_err(|_| FenError::SideToMove(side.to_string()))?;
        board.parse_castling(castling)?;
        board.parse_en_passant(en_passant)?;

        let them = !board.side;
        if board.is_attacked(board.king_square(them), board.side, board.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        board.checkers =
            board.attackers_to(board.king_square(board.side), board.occupied()) & board.color(them);
        board.key = board.compute_key();
        board.pawn_key = board.compute_pawn_key();
        board.non_pawn_keys = board.compute_non_pawn_keys();
        board.update_castling_tables();
        Ok(board)
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 7 - row as u8;
            let mut file = 0usize;
            for c in text.chars() {
                match c {
                    '1'..='8' => file += c as usize - '0' as usize,
                    _ => {
                        let piece = Piece::from_char(c).ok_or(FenError::UnknownPiece(c))?;
                        if file < 8 {
                            self.put(piece, Square::new(file as u8, rank));
                        }
                        file += 1;
                    }
                }
            }
            if file != 8 {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        for color in Color::ALL {
            let count = self.pieces(color, PieceType::King).count();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
        }
        let misplaced = self.kind(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8);
        if misplaced.any() {
            return Err(FenError::PawnOnBackRank(misplaced.lsb()));
        }
        Ok(())
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        let error = |reason: String| FenError::Castling {
            field: field.to_string(),
            reason,
        };
        if field == "-" {
            return Ok(());
        }
        let mut named_files = false;
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back_rank = Bitboard::rank(Square::A1.relative(color).rank());
            let king = self.king_square(color);
            let rooks = self.pieces(color, PieceType::Rook) & back_rank;
            if !back_rank.contains(king) {
                return Err(error(format!(
                    "'{c}' but the {} king is not on its first rank",
                    color_name(color)
                )));
            }
            let on_file = |file: u8| rooks.contains(Square::new(file, king.rank()));
            let (wing, file) = match c.to_ascii_lowercase() {
                // X-FEN: K and Q name the outermost rook on that side of the king.
                'k' => (Wing::King, (king.file() + 1..8).rev().find(|&f| on_file(f))),
                'q' => (Wing::Queen, (0..king.file()).find(|&f| on_file(f))),
                letter @ 'a'..='h' => {
                    named_files = true;
                    let file = letter as u8 - b'a';
                    if file == king.file() {
                        return Err(error(format!("'{c}' names the king's own file")));
                    }
                    let wing = if file > king.file() {
                        Wing::King
                    } else {
                        Wing::Queen
                    };
                    (wing, on_file(file).then_some(file))
                }
                _ => return Err(error(format!("'{c}' is not a castling letter"))),
            };
            let Some(file) = file else {
                return Err(error(format!(
                    "'{c}' but there is no {} rook for it",
                    color_name(color)
                )));
            };
            if self.castling.has(color, wing) {
                return Err(error(format!("'{c}' repeats a right already given")));
            }
            self.castling.add(color, wing, file);
        }
        let standard = Color::ALL.iter().all(|&color| {
            Wing::ALL
                .iter()
                .all(|&wing| match self.castling.rook_square(color, wing) {
                    None => true,
                    Some(rook) => {
                        self.king_square(color).file() == 4 && rook.file() == [7, 0][wing as usize]
                    }
                })
        });
        self.chess960 = named_files || !standard;
        Ok(())
    }

    fn parse_en_passant(&mut self, field: &str) -> Result<(), FenError> {
        let error = |reason: String| FenError::EnPassant {
            field: field.to_string(),
            reason,
        };
        if field == "-" {
            return Ok(());
        }
        let sq: Square = field.parse().map_err(|e: String| error(e))?;
        let us = self.side;
        // Relative ranks: the target is on the 6th, the pawn that passed it on the 5th, and
        // the square it came from on the 7th.
        let rank = |r: u8| Square::new(sq.file(), r).relative(us);
        let (pawn_sq, origin) = (rank(4), rank(6));
        if sq != rank(5) {
            let needed = if us == Color::White { 6 } else { 3 };
            return Err(error(format!(
                "must be on rank {needed} with {} to move",
                color_name(us)
            )));
        }
        if self.piece_at(sq).is_some() || self.piece_at(origin).is_some() {
            return Err(error(format!(
                "{sq} and {origin} must be empty after a double push"
            )));
        }
        if self.piece_at(pawn_sq) != Some(Piece::new(!us, PieceType::Pawn)) {
            return Err(error(format!(
                "no {} pawn on {pawn_sq} that just moved",
                color_name(!us)
            )));
        }
        if (sq.bb().pawn_attacks(!us) & self.pieces(us, PieceType::Pawn)).any() {
            self.en_passant = Some(sq);
        }
        Ok(())
    }

    /// The position as FEN (Shredder-FEN castling in Chess960 mode).
    pub fn to_fen(&self) -> String {
        let mut fen = placement(|sq| self.piece_at(sq));
        let castling = if self.chess960 || self.castling.is_empty() {
            self.castling.to_string()
        } else {
            [
                (Color::White, Wing::King, 'K'),
                (Color::White, Wing::Queen, 'Q'),
            ]
            .into_iter()
            .chain([
                (Color::Black, Wing::King, 'k'),
                (Color::Black, Wing::Queen, 'q'),
            ])
            .filter(|&(color, wing, _)| self.castling.has(color, wing))
            .map(|(_, _, c)| c)
            .collect()
        };
        let ep = self.en_passant.map_or("-".to_string(), |sq| sq.to_string());
        fen.push_str(&format!(
            " {} {castling} {ep} {} {}",
            self.side, self.halfmove, self.fullmove
        ));
        fen
    }
}

impl Board {
    /// The same position with colours swapped: the board turned upside down, White's pieces
    /// made Black's and the other side to move. Evaluation must give both the same score.
    pub fn mirrored(&self) -> Board {
        let fen = self.to_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let side = if self.side == Color::White { "b" } else { "w" };
        let ep = self
            .en_passant
            .map_or("-".to_string(), |sq| sq.flip().to_string());
        let mirrored = format!(
            "{} {side} {} {ep} {} {}",
            placement.join("/"),
            swap(fields[2]),
            self.halfmove,
            self.fullmove
        );
        let mut board =
            Board::from_fen(&mirrored).expect("the mirror of a valid position is valid");
        board.chess960 = self.chess960;
        board
    }
}

/// The piece-placement field of a FEN for the pieces `piece_at` names.
pub fn placement(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut text = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match piece_at(Square::new(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        text.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    text.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push((b'0' + empty) as char);
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

/// A counter that must fit the u16 the board stores it in.
fn parse_counter(field: &str) -> Result<u16, &'static str> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a non-negative whole number");
    }
    field.parse().map_err(|_| "out of range (0 to 65535)")
}

fn parse_halfmove(field: &str) -> Result<u16, FenError> {
    parse_counter(field).map_err(|reason| FenError::HalfmoveClock {
        field: field.into(),
        reason,
    })
}

fn parse_fullmove(field: &str) -> Result<u16, FenError> {
    let n = parse_counter(field).map_err(|reason| FenError::FullmoveNumber {
        field: field.into(),
        reason,
    })?;
    Ok(n.max(1))
}
