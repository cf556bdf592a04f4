//! An analysed game as PGN: the game's tags with its opening, the annotator and each
//! side's accuracy; each move with its NAG, its evaluation as `[%eval ...]` (White's point
//! of view, in pawns or `#N` moves to mate: the convention of lichess.org and ChessBase,
//! which python-chess reads with `node.eval()`), what the verdict was, and the better line
//! as a variation.

use super::analyse::Analysis;
use crate::tools::pgn::{PgnGame, tag_line, wrap_movetext};
use crate::types::{Color, Score, UciScore};
use std::fmt::Write;

/// Tags this writer sets: any the game had under these names give way.
const OWN_TAGS: [&str; 7] = [
    "ECO",
    "Opening",
    "Annotator",
    "WhiteAccuracy",
    "BlackAccuracy",
    "WhiteAverageLoss",
    "BlackAverageLoss",
];

/// `[%eval 0.31]`, `[%eval #4]`, `[%eval #-3]`: `score` is the side to move's (`side`), the
/// text White's. A tablebase result's score, beyond any evaluation, shows as 100 pawns.
pub fn eval_text(score: Score, side: Color) -> String {
    let sign = side.sign();
    match UciScore(score).mate_in() {
        // Mated: `#0` whoever it is, as python-chess reads it (the side to move is mated).
        Some(0) => "[%eval #0]".to_string(),
        Some(moves) => format!("[%eval #{}]", moves * sign),
        None => format!(
            "[%eval {:.2}]",
            f64::from((score * sign).clamp(-10_000, 10_000)) / 100.0
        ),
    }
}

/// The tags of the annotated game: the game's own, then after `Result` (or at the end) the
/// opening, the annotator and the accuracy and average loss of each side judged.
fn tags(game: &PgnGame, analysis: &Analysis, annotator: &str) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = game
        .tags
        .iter()
        .filter(|(name, _)| !OWN_TAGS.iter().any(|own| own.eq_ignore_ascii_case(name)))
        .cloned()
        .collect();
    let mut own = Vec::new();
    if let Some(opening) = analysis.opening {
        own.push(("ECO".to_string(), opening.eco.to_string()));
        own.push(("Opening".to_string(), opening.name.to_string()));
    }
    own.push(("Annotator".to_string(), annotator.to_string()));
    for (side, tally) in ["White", "Black"].iter().zip(&analysis.tallies) {
        if let (Some(accuracy), Some(loss)) = (tally.accuracy(), tally.average_loss()) {
            own.push((format!("{side}Accuracy"), format!("{accuracy:.1}")));
            own.push((format!("{side}AverageLoss"), format!("{loss:.1}")));
        }
    }
    let at = tags
        .iter()
        .position(|(name, _)| name == "Result")
        .map_or(tags.len(), |i| i + 1);
    tags.splice(at..at, own);
    tags
}

/// The movetext's tokens: move numbers, moves, NAGs, comments, variations, the result.
fn tokens(game: &PgnGame, analysis: &Analysis) -> Vec<String> {
    let mut tokens = Vec::new();
    // A Black move needs its number at the start and after a comment or variation.
    let mut number_next = true;
    for (ply, &m) in analysis.moves.iter().enumerate() {
        let board = &analysis.boards[ply];
        let white = board.side_to_move() == Color::White;
        if white || number_next {
            let dots = if white { "." } else { "..." };
            tokens.push(format!("{}{dots}", board.fullmove_number()));
        }
        tokens.push(crate::rules::Notation::move_to_san(board, m));
        let judgement = analysis.judged[ply].as_ref();
        if let Some(verdict) = judgement.and_then(|j| j.verdict) {
            tokens.push(format!("${}", verdict.nag()));
        }
        let mut comment = Vec::new();
        if let Some((value, side)) = analysis.after(ply) {
            comment.push(eval_text(value.score, side));
        }
        if ply + 1 == analysis.book_plies
            && let Some(opening) = analysis.book_opening
        {
            comment.push(format!("{opening}."));
        }
        let entered_tables = analysis
            .after(ply)
            .and_then(|(v, side)| v.table.map(|t| (t, side)))
            .filter(|_| {
                analysis.values[ply]
                    .as_ref()
                    .is_none_or(|v| v.table.is_none())
            });
        if let Some((wdl, side)) = entered_tables {
            comment.push(format!("Tablebase position: {}.", table_text(wdl, side)));
        }
        let mut variation = None;
        if let Some(j) = judgement
            && let Some(verdict) = j.verdict
        {
            match &j.better {
                Some((best, line)) => {
                    comment.push(format!("{}. {best} was best.", verdict.name()));
                    variation = Some(format!("({line})"));
                }
                None => comment.push(format!("{}.", verdict.name())),
            }
        }
        number_next = !comment.is_empty() || variation.is_some();
        if !comment.is_empty() {
            tokens.push(format!("{{ {} }}", comment.join(" ")));
        }
        tokens.extend(variation);
    }
    if let Some(fault) = &analysis.fault {
        tokens.push(format!(
            "{{ Move {} cannot be played ({}): the game is annotated up to it. }}",
            fault.text,
            fault.reason.replace('}', ")")
        ));
    }
    tokens.push(game_result(game).to_string());
    tokens
}

/// `White wins`, `Black wins` or `draw` for a table value of the side to move.
fn table_text(wdl: crate::tablebase::Wdl, side: Color) -> &'static str {
    use crate::tablebase::Wdl;
    let winner = match wdl {
        Wdl::Win => Some(side),
        Wdl::Loss => Some(!side),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => None,
    };
    match winner {
        Some(Color::White) => "White wins",
        Some(Color::Black) => "Black wins",
        None => "draw",
    }
}

/// The result token the game ended with.
fn game_result(game: &PgnGame) -> &'static str {
    use crate::tools::pgn::GameResult;
    match game.result() {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Unknown => "*",
    }
}

/// The annotated game as PGN text, with the blank line that ends it.
pub fn pgn(game: &PgnGame, analysis: &Analysis, annotator: &str) -> String {
    let mut text = String::new();
    for (name, value) in tags(game, analysis, annotator) {
        let _ = writeln!(text, "{}", tag_line(&name, &value));
    }
    text.push('\n');
    text.push_str(&wrap_movetext(tokens(game, analysis)));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::MATE;

    #[test]
    fn evaluations_from_whites_point_of_view() {
        assert_eq!(eval_text(31, Color::White), "[%eval 0.31]");
        assert_eq!(eval_text(31, Color::Black), "[%eval -0.31]");
        assert_eq!(eval_text(-5, Color::White), "[%eval -0.05]");
        assert_eq!(eval_text(0, Color::Black), "[%eval 0.00]");
        // White to move mates in 4; Black to move mates in 3.
        assert_eq!(eval_text(MATE - 7, Color::White), "[%eval #4]");
        assert_eq!(eval_text(MATE - 5, Color::Black), "[%eval #-3]");
        // Black to move is mated in 2.
        assert_eq!(eval_text(-(MATE - 4), Color::Black), "[%eval #2]");
        assert_eq!(eval_text(-MATE, Color::Black), "[%eval #0]");
        assert_eq!(
            eval_text(crate::types::TB_WIN - 3, Color::Black),
            "[%eval -100.00]"
        );
    }
}
