//! Endgame knowledge: material that cannot win scored as an exact draw, the mates against a
//! bare king (KQK, KRK, KBNK and the like) driven to the right edge or corner, and the
//! scaling down of endgames that are drawish whatever the material count says.

use super::masks::distance;
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Score, Square};

/// A won ending against a bare king: above any evaluation of a normal position, below the
/// mate scores.
pub const KNOWN_WIN: Score = 10_000;

/// The full endgame weight; `scale` returns a fraction of it.
pub const SCALE_NORMAL: i32 = 128;

/// Dark squares (a1, c1, ...).
const DARK: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

/// Material in pawns, for telling endings apart.
fn piece_count(board: &Board, color: Color) -> i32 {
    [
        (PieceType::Knight, 3),
        (PieceType::Bishop, 3),
        (PieceType::Rook, 5),
        (PieceType::Queen, 9),
    ]
    .iter()
    .map(|&(kind, value)| board.pieces(color, kind).count() as i32 * value)
    .sum()
}

/// Positions whose value the evaluation knows outright, from White's view: insufficient
/// material (0), and a bare king against pieces that mate by force.
pub fn exact(board: &Board) -> Option<Score> {
    if board.is_insufficient_material() {
        return Some(0);
    }
    if board.kind(PieceType::Pawn).any() {
        return None;
    }
    for strong in Color::ALL {
        let weak = !strong;
        if board.color(weak).count() != 1 {
            continue;
        }
        let has = |kind| board.pieces(strong, kind).count();
        let bishops = board.pieces(strong, PieceType::Bishop);
        let both_colours = (bishops & DARK).any() && (bishops & !DARK).any();
        let mates = has(PieceType::Queen) > 0
            || has(PieceType::Rook) > 0
            || both_colours
            || (has(PieceType::Bishop) > 0 && has(PieceType::Knight) > 0);
        if !mates {
            return None;
        }
        let weak_king = board.king_square(weak);
        let strong_king = board.king_square(strong);
        // Drive the king to the edge, or for bishop and knight to a corner the bishop
        // covers, and bring our king close.
        let cornering = if has(PieceType::Queen) + has(PieceType::Rook) == 0
            && !both_colours
            && bishops.any()
        {
            let corners = if (bishops & DARK).any() {
                [Square::A1, Square::H8]
            } else {
                [Square::H1, Square::new(0, 7)]
            };
            // By the Manhattan distance, which falls with every step towards the corner
            // (the king distance stays flat along the edge).
            let manhattan = |c: Square| {
                (weak_king.file() as i32 - c.file() as i32).abs()
                    + (weak_king.rank() as i32 - c.rank() as i32).abs()
            };
            40 * (14 - corners.iter().map(|&c| manhattan(c)).min().unwrap_or(14))
        } else {
            20 * edge_distance(weak_king)
        };
        let score = KNOWN_WIN + 100 * piece_count(board, strong) + cornering
            - 10 * distance(strong_king, weak_king);
        return Some(score * strong.sign());
    }
    None
}

/// How far the king is pushed to the edge: 0 in the centre, 6 in a corner.
fn edge_distance(sq: Square) -> i32 {
    let from_edge = |x: u8| (x.min(7 - x)) as i32;
    6 - from_edge(sq.file()) - from_edge(sq.rank())
}

/// The share of the endgame value (of `SCALE_NORMAL`) that the side ahead keeps, where
/// material alone overstates its chances; `eg` is the endgame score from White's view.
pub fn scale(board: &Board, eg: Score) -> i32 {
    // Nothing to scale at 0, and no side ahead to choose.
    if eg == 0 {
        return SCALE_NORMAL;
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_pawns = board.pieces(strong, PieceType::Pawn).count();
    let (strong_pieces, weak_pieces) = (piece_count(board, strong), piece_count(board, weak));
    if strong_pawns == 0 {
        // No pawns to promote: a minor piece alone cannot win, and less than a rook up
        // (KR v KB, KR v KN, KRB v KR, ...) is rarely enough.
        if strong_pieces <= 3 {
            return 0;
        }
        if strong_pieces - weak_pieces <= 3 {
            return 16;
        }
    }
    let bishops = |c| board.pieces(c, PieceType::Bishop);
    let (ours, theirs) = (bishops(strong), bishops(weak));
    if ours.count() == 1 && theirs.count() == 1 && ((ours & DARK).any() != (theirs & DARK).any()) {
        // Opposite-coloured bishops: the defender's bishop holds the squares the other
        // cannot contest.
        return if strong_pieces == 3 && weak_pieces == 3 {
            64
        } else {
            96
        };
    }
    let pawns = board.kind(PieceType::Pawn);
    let queenside = Bitboard(0x0f0f_0f0f_0f0f_0f0f);
    if strong_pieces == weak_pieces
        && pawns.any()
        && ((pawns & queenside).is_empty() || (pawns & !queenside).is_empty())
        && strong_pawns <= board.pieces(weak, PieceType::Pawn).count() + 1
    {
        // All pawns on one wing, one pawn up at most: the defender's king stands in front.
        return 96;
    }
    SCALE_NORMAL
}
