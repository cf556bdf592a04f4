//! What the person sees: the board from their side (Unicode figurines where the terminal
//! takes UTF-8, letters otherwise) and the clocks.

use crate::board::Board;
use crate::types::{Color, Piece, PieceType, Square};

/// Whether the terminal shows UTF-8, as the locale variables say.
pub fn terminal_takes_unicode() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .is_some_and(|value| {
            let value = value.to_ascii_lowercase();
            value.contains("utf-8") || value.contains("utf8")
        })
}

/// The board with rank 1 at the bottom, or at the top when `black_below`; `last` marks
/// the squares of the last move.
pub fn board_text(
    board: &Board,
    black_below: bool,
    unicode: bool,
    last: Option<(Square, Square)>,
) -> String {
    let ranks: Vec<u8> = if black_below {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let files: Vec<u8> = if black_below {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let mut text = String::new();
    for &rank in &ranks {
        text.push_str(&format!(" {} ", rank + 1));
        for &file in &files {
            let square = Square::new(file, rank);
            let marked = last.is_some_and(|(from, to)| square == from || square == to);
            let glyph = match board.piece_at(square) {
                Some(piece) => piece_glyph(piece, unicode),
                None if marked => '-',
                None => '.',
            };
            text.push(if marked { '[' } else { ' ' });
            text.push(glyph);
            text.push(if marked { ']' } else { ' ' });
        }
        text.push('\n');
    }
    text.push_str("   ");
    for &file in &files {
        text.push_str(&format!(" {} ", (b'a' + file) as char));
    }
    text
}

fn piece_glyph(piece: Piece, unicode: bool) -> char {
    if !unicode {
        return piece.char();
    }
    let index = match piece.kind() {
        PieceType::King => 0,
        PieceType::Queen => 1,
        PieceType::Rook => 2,
        PieceType::Bishop => 3,
        PieceType::Knight => 4,
        PieceType::Pawn => 5,
    };
    let glyphs = match piece.color() {
        Color::White => ['♔', '♕', '♖', '♗', '♘', '♙'],
        Color::Black => ['♚', '♛', '♜', '♝', '♞', '♟'],
    };
    glyphs[index]
}

/// A clock reading: `4:07`, with tenths under ten seconds (`0:09.4`); never below zero.
pub fn clock_text(ms: i64) -> String {
    let ms = ms.max(0);
    let seconds = ms / 1000;
    if seconds < 10 {
        format!("0:{seconds:02}.{}", ms % 1000 / 100)
    } else if seconds >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds % 3600 / 60,
            seconds % 60
        )
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;

    #[test]
    fn boards_from_both_sides() {
        let board = Board::startpos();
        let white = board_text(&board, false, false, None);
        let lines: Vec<&str> = white.lines().collect();
        assert_eq!(lines[0], " 8  r  n  b  q  k  b  n  r ");
        assert_eq!(lines[7], " 1  R  N  B  Q  K  B  N  R ");
        assert_eq!(lines[8], "    a  b  c  d  e  f  g  h ");
        let black = board_text(&board, true, true, None);
        let lines: Vec<&str> = black.lines().collect();
        assert_eq!(lines[0], " 1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖ ");
        assert_eq!(lines[7], " 8  ♜  ♞  ♝  ♚  ♛  ♝  ♞  ♜ ");
        assert_eq!(lines[8], "    h  g  f  e  d  c  b  a ");
    }

    #[test]
    fn the_last_move_is_marked() {
        let mut board = Board::startpos();
        let m = board.parse_move("e2e4").unwrap();
        board.make_move(m);
        let text = board_text(&board, false, false, Some((m.from(), m.to())));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[4], " 4  .  .  .  . [P] .  .  . ");
        assert_eq!(lines[6], " 2  P  P  P  P [-] P  P  P ");
    }

    #[test]
    fn clocks() {
        assert_eq!(clock_text(300_000), "5:00");
        assert_eq!(clock_text(61_999), "1:01");
        assert_eq!(clock_text(9_450), "0:09.4");
        assert_eq!(clock_text(-20), "0:00.0");
        assert_eq!(clock_text(3_723_000), "1:02:03");
    }
}
