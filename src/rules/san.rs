//! Standard Algebraic Notation (`Nbd7`, `exd6`, `e8=Q+`, `O-O`), in and out.

use super::MoveError;
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{Move, PieceType, Square, Wing};

/// `Notation::move_to_san`.
pub(super) fn write(board: &Board, m: Move) -> String {
    let mut san = String::with_capacity(8);
    if m.is_castle() {
        san.push_str(if m.to() > m.from() { "O-O" } else { "O-O-O" });
    } else {
        let Some(piece) = board.piece_at(m.from()) else {
            return m.to_string();
        };
        let kind = piece.kind();
        if kind == PieceType::Pawn {
            if m.is_capture() {
                san.push((b'a' + m.from().file()) as char);
            }
        } else {
            san.push(kind.char().to_ascii_uppercase());
            // Name the file, else the rank, else both, to tell apart pieces of the same
            // kind that could also move there.
            let rivals: Vec<Square> = legal_moves(board)
                .iter()
                .filter(|o| o.to() == m.to() && o.from() != m.from() && !o.is_castle())
                .filter(|o| board.piece_at(o.from()).map(|p| p.kind()) == Some(kind))
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let file_unique = rivals.iter().all(|s| s.file() != m.from().file());
                let rank_unique = rivals.iter().all(|s| s.rank() != m.from().rank());
                if file_unique {
                    san.push((b'a' + m.from().file()) as char);
                } else if rank_unique {
                    san.push((b'1' + m.from().rank()) as char);
                } else {
                    san.push_str(&m.from().to_string());
                }
            }
        }
        if m.is_capture() {
            san.push('x');
        }
        san.push_str(&m.to().to_string());
        if let Some(promoted) = m.promotion() {
            san.push('=');
            san.push(promoted.char().to_ascii_uppercase());
        }
    }
    let mut after = board.clone();
    after.make_move(m);
    if after.in_check() {
        san.push(if legal_moves(&after).is_empty() {
            '#'
        } else {
            '+'
        });
    }
    san
}

/// `Notation::parse_san`.
pub(super) fn parse(board: &Board, text: &str) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(text.to_string());
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    if !core.is_ascii() || core.is_empty() {
        return Err(malformed());
    }
    let moves = legal_moves(board);
    let unique = |mut candidates: Vec<Move>| match candidates.len() {
        1 => Ok(candidates.remove(0)),
        0 => Err(MoveError::Illegal(text.to_string())),
        _ => Err(MoveError::Ambiguous(text.to_string())),
    };

    if let Some(wing) = match core {
        "O-O" | "0-0" => Some(Wing::King),
        "O-O-O" | "0-0-0" => Some(Wing::Queen),
        _ => None,
    } {
        let rook = board.castling().rook_square(board.side_to_move(), wing);
        return unique(
            moves
                .iter()
                .copied()
                .filter(|m| m.is_castle() && Some(m.to()) == rook)
                .collect(),
        );
    }

    let bytes = core.as_bytes();
    let (kind, rest) = match bytes[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' => (PieceType::from_char(bytes[0] as char), &core[1..]),
        b'a'..=b'h' => (Some(PieceType::Pawn), core),
        _ => return Err(malformed()),
    };
    let kind = kind.ok_or_else(malformed)?;
    // A promotion piece at the end, with or without '='.
    let (rest, promotion) = match rest.as_bytes() {
        [.., b'=', p] | [.., b'1'..=b'8', p @ (b'N' | b'B' | b'R' | b'Q')]
            if kind == PieceType::Pawn =>
        {
            let cut = if rest.as_bytes()[rest.len() - 2] == b'=' {
                2
            } else {
                1
            };
            let piece = PieceType::from_char(*p as char)
                .filter(|k| !matches!(k, PieceType::Pawn | PieceType::King));
            (
                &rest[..rest.len() - cut],
                Some(piece.ok_or_else(malformed)?),
            )
        }
        _ => (rest, None),
    };
    if rest.len() < 2 {
        return Err(malformed());
    }
    let to: Square = rest[rest.len() - 2..].parse().map_err(|_| malformed())?;
    // What is left names the origin: a file, a rank or both, and maybe 'x'.
    let mut from_file = None;
    let mut from_rank = None;
    for c in rest[..rest.len() - 2].bytes() {
        match c {
            b'a'..=b'h' => from_file = Some(c - b'a'),
            b'1'..=b'8' => from_rank = Some(c - b'1'),
            b'x' | b':' | b'-' => {}
            _ => return Err(malformed()),
        }
    }
    unique(
        moves
            .iter()
            .copied()
            .filter(|m| !m.is_castle() && m.to() == to && m.promotion() == promotion)
            .filter(|m| board.piece_at(m.from()).map(|p| p.kind()) == Some(kind))
            .filter(|m| from_file.is_none_or(|f| m.from().file() == f))
            .filter(|m| from_rank.is_none_or(|r| m.from().rank() == r))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;

    #[test]
    fn round_trip_over_all_moves() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "1r2k3/8/8/8/8/8/8/RK6 w A - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            for &m in legal_moves(&board).iter() {
                let san = board.move_to_san(m);
                assert_eq!(board.parse_san(&san), Ok(m), "{san} in {fen}");
            }
        }
    }

    #[test]
    fn notation_details() {
        let board =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        let san = |uci: &str| board.move_to_san(board.parse_move(uci).unwrap());
        assert_eq!(san("e1g1"), "O-O");
        assert_eq!(san("e1c1"), "O-O-O");
        assert_eq!(san("d5e6"), "dxe6");
        assert_eq!(san("e5f7"), "Nxf7");
        assert_eq!(san("c3b1"), "Nb1");
        assert_eq!(san("f3f6"), "Qxf6");
        // Two rooks on one rank: the file tells them apart.
        let board = Board::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert_eq!(board.move_to_san(board.parse_move("a1d1").unwrap()), "Rad1");
        // Mate and promotion.
        let board = Board::from_fen("7k/1P4pp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        assert_eq!(board.move_to_san(board.parse_move("a1a8").unwrap()), "Ra8#");
        assert_eq!(
            board.move_to_san(board.parse_move("b7b8n").unwrap()),
            "b8=N"
        );
        assert_eq!(board.parse_san("b8Q"), board.parse_move("b7b8q"));
        assert_eq!(board.parse_san("Ra8+!"), board.parse_move("a1a8"));
    }

    #[test]
    fn bad_san() {
        let board = Board::startpos();
        assert_eq!(board.parse_san("Nf3"), board.parse_move("g1f3"));
        assert_eq!(board.parse_san("e4"), board.parse_move("e2e4"));
        for text in ["", "+", "Xe4", "Ne9", "N", "e", "e8=K", "Nf3é", "O-O-O-O"] {
            assert!(
                matches!(board.parse_san(text), Err(MoveError::Malformed(_))),
                "{text}"
            );
        }
        for text in ["e5", "Nf4", "O-O", "Ke2", "exd3"] {
            assert!(
                matches!(board.parse_san(text), Err(MoveError::Illegal(_))),
                "{text}"
            );
        }
        let board = Board::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert!(matches!(
            board.parse_san("Rd1"),
            Err(MoveError::Ambiguous(_))
        ));
        assert_eq!(board.parse_any_move("a1d1"), board.parse_san("Rad1"));
    }
}
