//! Viriformat: whole self-play games, as Viridithas writes them and the `viriformat` crate
//! reads them. A game is its first position in marlinformat (32 bytes), then for every
//! move played the move and the search score of the position it was played from (2 + 2
//! bytes, scores from White's view), then four zero bytes. About 4.5 bytes a position.
//!
//! The encoder and decoder are Ferrum's own, so that a damaged file is an error rather
//! than a panic; `tests/data.rs` checks them byte for byte against the crate.
//!
//! Marlinformat, little-endian: occupancy (u64); a 4-bit code for each occupied square in
//! ascending order (piece type 0-5 from pawn to king, 6 for a rook that can still castle,
//! plus 8 for Black); side to move (bit 7) and en-passant square (64 for none); halfmove
//! clock (u8); fullmove number (u16); score (i16); result for White (0 loss, 1 draw, 2
//! win); one spare byte.

use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{Bitboard, Color, Move, PieceType, Square, Wing};
use std::io::{self, Read};

/// The bytes of a game's first position.
pub const HEADER: usize = 32;
/// The bytes of one move and its score.
pub const MOVE: usize = 4;

const UNMOVED_ROOK: u8 = 6;
const PROMOTION: u16 = 0b11 << 14;
const EN_PASSANT: u16 = 0b01 << 14;
const CASTLE: u16 = 0b10 << 14;

/// A self-play game: where it began, each move with the score of the position it was
/// played from (White's view), and the result for White (0, 1 or 2 half points).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub start: Board,
    pub moves: Vec<(Move, i16)>,
    pub wdl: u8,
}

impl Game {
    /// The game in viriformat, terminator included.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER + MOVE * (self.moves.len() + 1));
        bytes.extend_from_slice(&encode_position(&self.start, 0, self.wdl));
        for &(m, score) in &self.moves {
            bytes.extend_from_slice(&encode_move(m).to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        bytes.extend_from_slice(&[0; MOVE]);
        bytes
    }

    /// Each position of the game with the move played from it and its score.
    pub fn positions(&self) -> impl Iterator<Item = (Board, Move, i16)> + '_ {
        let mut board = self.start.clone();
        self.moves.iter().map(move |&(m, score)| {
            let before = board.clone();
            board.make_move(m);
            (before, m, score)
        })
    }
}

/// `board` in marlinformat, with a score and result.
pub fn encode_position(board: &Board, score: i16, wdl: u8) -> [u8; HEADER] {
    let mut out = [0; HEADER];
    let occupied = board.occupied();
    out[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    let castling = board.castling();
    for (i, sq) in occupied.enumerate() {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let color = piece.color();
        let unmoved_rook = piece.kind() == PieceType::Rook
            && [Wing::King, Wing::Queen]
                .iter()
                .any(|&wing| castling.rook_square(color, wing) == Some(sq));
        let code = if unmoved_rook {
            UNMOVED_ROOK
        } else {
            piece.kind() as u8
        };
        out[8 + i / 2] |= (code | u8::from(color == Color::Black) << 3) << (4 * (i % 2));
    }
    let ep = board.en_passant().map_or(64, |sq| sq.index() as u8);
    out[24] = u8::from(board.side_to_move() == Color::Black) << 7 | ep;
    out[25] = board.halfmove_clock().min(255) as u8;
    out[26..28].copy_from_slice(&board.fullmove_number().to_le_bytes());
    out[28..30].copy_from_slice(&score.to_le_bytes());
    out[30] = wdl;
    out
}

/// The position, score and result of a marlinformat record, or what is wrong with it.
pub fn decode_position(bytes: &[u8; HEADER]) -> Result<(Board, i16, u8), String> {
    let mut occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().unwrap_or([0; 8])));
    if occupied.count() > 32 {
        return Err(format!("{} pieces", occupied.count()));
    }
    let mut squares = [None; 64];
    let mut kings = [None::<Square>; 2];
    let mut castling_files = [String::new(), String::new()];
    for i in 0..occupied.count() as usize {
        let sq = occupied.lsb();
        occupied.0 &= occupied.0 - 1;
        let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf;
        let color = if code & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let kind = match code & 7 {
            UNMOVED_ROOK => {
                // X-FEN: the corner rooks as k and q, any other by its file.
                let letter = match sq.file() {
                    7 => 'k',
                    0 => 'q',
                    file => (b'a' + file) as char,
                };
                castling_files[color.index()].push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
                PieceType::Rook
            }
            7 => return Err(format!("piece code {code} on {sq}")),
            k => PieceType::ALL[k as usize],
        };
        if kind == PieceType::King {
            kings[color.index()] = Some(sq);
        }
        let letter = kind.char();
        squares[sq.index()] = Some(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    if kings.iter().any(Option::is_none) {
        return Err("a king is missing".into());
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if bytes[24] & 0x80 != 0 { "b" } else { "w" };
    let ep = match bytes[24] & 0x7f {
        64 => "-".to_string(),
        sq => Square::from_index(sq as usize)
            .map(|s| s.to_string())
            .ok_or_else(|| format!("en-passant square {sq}"))?,
    };
    let castling = format!("{}{}", castling_files[0], castling_files[1]);
    let castling = if castling.is_empty() { "-" } else { &castling };
    let fullmove = u16::from_le_bytes([bytes[26], bytes[27]]).max(1);
    let fen = format!(
        "{placement} {side} {castling} {ep} {} {fullmove}",
        bytes[25]
    );
    let board = Board::from_fen(&fen).map_err(|e| format!("{fen}: {e}"))?;
    let score = i16::from_le_bytes([bytes[28], bytes[29]]);
    let wdl = bytes[30];
    if wdl > 2 {
        return Err(format!("result {wdl}"));
    }
    Ok((board, score, wdl))
}

/// A move in viriformat's 16 bits.
pub fn encode_move(m: Move) -> u16 {
    let squares = m.from().index() as u16 | (m.to().index() as u16) << 6;
    match m.promotion() {
        Some(kind) => squares | (kind as u16 - 1) << 12 | PROMOTION,
        None if m.is_en_passant() => squares | EN_PASSANT,
        None if m.is_castle() => squares | CASTLE,
        None => squares,
    }
}

/// The legal move of `board` that viriformat's `bits` stand for.
pub fn decode_move(board: &Board, bits: u16) -> Option<Move> {
    legal_moves(board)
        .iter()
        .copied()
        .find(|&m| encode_move(m) == bits)
}

/// What can go wrong reading a file of games.
#[derive(Debug)]
pub enum ReadError {
    /// The file ends inside a game (the game being written when the writer stopped).
    Truncated,
    /// A game that is not valid viriformat.
    Invalid(String),
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ReadError::Truncated => write!(f, "the file ends inside a game"),
            ReadError::Invalid(why) => write!(f, "{why}"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Fills `buf` from `reader`: `Ok(false)` at a clean end of input before the first byte.
fn fill(reader: &mut impl Read, buf: &mut [u8]) -> Result<bool, ReadError> {
    let mut read = 0;
    while read < buf.len() {
        match reader.read(&mut buf[read..]) {
            Ok(0) if read == 0 => return Ok(false),
            Ok(0) => return Err(ReadError::Truncated),
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    Ok(true)
}

/// The bytes of the next game, checked for shape only (a header, moves, the terminator);
/// `None` at the end of the file.
pub fn next_raw(reader: &mut impl Read) -> Result<Option<Vec<u8>>, ReadError> {
    let mut header = [0; HEADER];
    if !fill(reader, &mut header)? {
        return Ok(None);
    }
    let mut bytes = header.to_vec();
    loop {
        let mut record = [0; MOVE];
        if !fill(reader, &mut record)? {
            return Err(ReadError::Truncated);
        }
        bytes.extend_from_slice(&record);
        if record == [0; MOVE] {
            return Ok(Some(bytes));
        }
        if bytes.len() > HEADER + MOVE * 10_000 {
            return Err(ReadError::Invalid(
                "a game of more than 10,000 moves".into(),
            ));
        }
    }
}

/// The next game, every move checked for legality; `None` at the end of the file.
pub fn next_game(reader: &mut impl Read) -> Result<Option<Game>, ReadError> {
    let Some(bytes) = next_raw(reader)? else {
        return Ok(None);
    };
    let header: &[u8; HEADER] = bytes[..HEADER].try_into().unwrap_or(&[0; HEADER]);
    let (start, _, wdl) = decode_position(header).map_err(ReadError::Invalid)?;
    let mut board = start.clone();
    let mut moves = Vec::with_capacity((bytes.len() - HEADER) / MOVE);
    for record in bytes[HEADER..bytes.len() - MOVE].chunks_exact(MOVE) {
        let bits = u16::from_le_bytes([record[0], record[1]]);
        let score = i16::from_le_bytes([record[2], record[3]]);
        let m = decode_move(&board, bits).ok_or_else(|| {
            ReadError::Invalid(format!(
                "move {bits:#06x} is not legal in {}",
                board.to_fen()
            ))
        })?;
        board.make_move(m);
        moves.push((m, score));
    }
    Ok(Some(Game { start, moves, wdl }))
}
