//! One game analysed: every position from the first judged move to the end searched once,
//! each judged move's loss taken from the position before it and the one after, and the
//! engine's line kept where the move lost enough to show a better one.
//!
//! The positions are searched from the last back to the first by default, as analysis
//! programs do: the table then holds what the searches of the later positions found, so
//! the search before a move already knows how the game went on after it, and the value
//! before a move and the value after it agree more often (a move that loses is seen to
//! lose by both). `tests/annotate.rs` measures both orders (docs/annotate.md).

use super::judge::{Tally, Verdict, expected, expected_by_table};
use crate::board::Board;
use crate::eco::{Opening, OpeningNames};
use crate::movegen::legal_moves;
use crate::rules::{GameEnd, Notation};
use crate::search::{Limits, Session, Signals};
use crate::tablebase::Wdl;
use crate::tools::pgn::{MoveFault, PgnGame, numbered};
use crate::types::{Color, MATE, Move, Score};
use std::sync::atomic::Ordering;

/// How a game is analysed.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The search of each position.
    pub limits: Limits,
    /// Judge only this side's moves (`None`: both).
    pub side: Option<Color>,
    /// Judge moves from this move number on.
    pub from_move: u16,
    /// Search the positions from the last to the first (see the module's comment).
    pub backwards: bool,
    /// Plies of the better line shown after a mistake or a blunder.
    pub line_plies: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limits: Limits::nodes(super::DEFAULT_NODES),
            side: None,
            from_move: 1,
            backwards: true,
            line_plies: 8,
        }
    }
}

/// What is known of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// For the side to move: the search's score, or the rules' (mate, a draw) at the end.
    pub score: Score,
    /// The search's line, best move first (empty at the end of the game).
    pub pv: Vec<Move>,
    /// The side to move's expected score in percent, by the WDL model.
    pub expected: f64,
    /// The tablebases' value for the side to move, when they hold the position.
    pub table: Option<Wdl>,
}

/// A judged move.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Expected score given away, in percentage points (0 for the engine's own choice).
    pub loss: f64,
    pub verdict: Option<Verdict>,
    /// The better move and line (SAN, numbered), after a mistake or a blunder.
    pub better: Option<(String, String)>,
    /// Judged by the tablebases rather than the search.
    pub by_table: bool,
}

/// A game as analysed: its moves (up to the first that cannot be played), the value of
/// each position reached, and the verdict on each judged move.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Positions before each move, and the last one: `moves.len() + 1` of them.
    pub boards: Vec<Board>,
    pub moves: Vec<Move>,
    /// The value of each position, where it was searched.
    pub values: Vec<Option<Value>>,
    /// For each move: `None` when not judged (another side's, before `from_move`, a book
    /// move).
    pub judged: Vec<Option<Judgement>>,
    /// Moves from the start that follow the named opening lines.
    pub book_plies: usize,
    /// The game's opening (its last named position) and that of the book moves.
    pub opening: Option<&'static Opening>,
    pub book_opening: Option<&'static Opening>,
    /// The move that could not be played, if one could not.
    pub fault: Option<MoveFault>,
    /// White's and Black's judged moves, added up.
    pub tallies: [Tally; 2],
}

impl Analysis {
    /// The value after move `ply`, for White: its score (side to move's, and who moves).
    pub fn after(&self, ply: usize) -> Option<(&Value, Color)> {
        let value = self.values.get(ply + 1)?.as_ref()?;
        Some((value, self.boards[ply + 1].side_to_move()))
    }

    /// White's expected score in percent after each move that has a value, with the ply.
    pub fn white_chances(&self) -> Vec<(usize, f64)> {
        (0..self.moves.len())
            .filter_map(|ply| {
                let (value, side) = self.after(ply)?;
                let chances = match side {
                    Color::White => value.expected,
                    Color::Black => 100.0 - value.expected,
                };
                Some((ply, chances))
            })
            .collect()
    }
}

/// A game's moves up to the first that cannot be played, the positions before each and the
/// last, and the fault if a move could not be played.
struct Replayed {
    boards: Vec<Board>,
    moves: Vec<Move>,
    fault: Option<MoveFault>,
}

/// The moves of `game` and the positions before each (the last position too), up to the
/// first move that cannot be played.
fn replay(game: &PgnGame) -> Result<Replayed, String> {
    let start = game.start()?;
    let (mut boards, mut moves) = (Vec::new(), Vec::new());
    let fault = game
        .replay(|board, m| {
            boards.push(board.clone());
            moves.push(m);
        })
        .err();
    let mut last = boards.last().cloned().unwrap_or(start);
    if let Some(&m) = moves.last() {
        last.make_move(m);
    }
    boards.push(last);
    Ok(Replayed {
        boards,
        moves,
        fault,
    })
}

/// Analyses `game` with `session` (its table cleared first, then kept across the game),
/// calling `searched` after each search. `None` when `signals` stopped it; an error when
/// the game's first position cannot be set up.
pub fn analyse(
    game: &PgnGame,
    settings: &Settings,
    session: &mut Session,
    signals: &Signals,
    searched: &mut dyn FnMut(),
) -> Option<Result<Analysis, String>> {
    let Replayed {
        boards,
        moves,
        fault,
    } = match replay(game) {
        Ok(replayed) => replayed,
        Err(e) => return Some(Err(e)),
    };
    let judged_side = |ply: usize| {
        let board = &boards[ply];
        settings.side.is_none_or(|s| s == board.side_to_move())
            && board.fullmove_number() >= settings.from_move
    };
    let names = OpeningNames::get();
    let book_plies = (0..moves.len())
        .take_while(|&ply| names.is_known(&boards[ply + 1]))
        .count();
    let first = (0..moves.len()).find(|&ply| judged_side(ply));
    let model = session.options.evaluator.calibration().wdl;
    let tables = session.options.syzygy.as_ref().map(|s| s.tables.clone());

    // Every position from the first judged move's on: those before and after each move.
    let mut values: Vec<Option<Value>> = vec![None; boards.len()];
    let order: Vec<usize> = match first {
        Some(first) if settings.backwards => (first..boards.len()).rev().collect(),
        Some(first) => (first..boards.len()).collect(),
        None => Vec::new(),
    };
    session.clear();
    for at in order {
        let board = &boards[at];
        let table = tables.as_ref().and_then(|t| t.probe_wdl(board));
        let ended = (at + 1 == boards.len())
            .then(|| board.game_over())
            .flatten();
        let (score, pv) = match ended {
            // Mated, or drawn by rule: no search.
            Some((result, _)) => (if result == "1/2-1/2" { 0 } else { -MATE }, Vec::new()),
            None => {
                let found = session.run(board, &settings.limits, signals, &mut |_| {});
                if signals.stop.load(Ordering::Relaxed) {
                    return None;
                }
                searched();
                let pv = found
                    .lines
                    .first()
                    .map(|l| l.pv.clone())
                    .filter(|pv| pv.first() == found.best.as_ref())
                    .unwrap_or_else(|| found.best.into_iter().collect());
                (found.score, pv)
            }
        };
        values[at] = Some(Value {
            score,
            pv,
            expected: expected(&model, score, board),
            table,
        });
    }

    let mut judged = vec![None; moves.len()];
    let mut tallies = [Tally::default(); 2];
    for ply in 0..moves.len() {
        if ply < book_plies || !judged_side(ply) {
            continue;
        }
        let (Some(before), Some(after)) = (&values[ply], &values[ply + 1]) else {
            continue;
        };
        let judgement = judge(&boards[ply], moves[ply], before, after, settings);
        tallies[boards[ply].side_to_move().index()].add(judgement.loss, judgement.verdict);
        judged[ply] = Some(judgement);
    }
    Some(Ok(Analysis {
        opening: names.of_game(&boards[boards.len() - 1]),
        book_opening: names.of_game(&boards[book_plies]),
        boards,
        moves,
        values,
        judged,
        book_plies,
        fault,
        tallies,
    }))
}

/// The verdict on `played` from `board`, whose value is `before`, leading to `after`.
fn judge(board: &Board, played: Move, before: &Value, after: &Value, s: &Settings) -> Judgement {
    // The tables, where they hold both positions, know the result for certain.
    let (from, to, by_table) = match (before.table, after.table) {
        (Some(b), Some(a)) => (expected_by_table(b), 100.0 - expected_by_table(a), true),
        _ => (before.expected, 100.0 - after.expected, false),
    };
    // The engine's own move loses nothing, whatever the two searches say.
    let best = before.pv.first().copied();
    let loss = if best == Some(played) && !by_table {
        0.0
    } else {
        (from - to).max(0.0)
    };
    let verdict = Verdict::of(loss);
    let better = match (verdict, best) {
        (Some(Verdict::Mistake | Verdict::Blunder), Some(best)) if best != played => {
            let line = line_text(board, &before.pv[..before.pv.len().min(s.line_plies)]);
            Some((board.move_to_san(best), line))
        }
        _ => None,
    };
    Judgement {
        loss,
        verdict,
        better,
        by_table,
    }
}

/// `moves` from `board` as numbered SAN (`12. Nf3 Nc6 13. d4`), up to the first that is
/// not legal (a line from the table may hold a move that a collision put there).
pub fn line_text(board: &Board, moves: &[Move]) -> String {
    let mut board = board.clone();
    let mut text = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if !legal_moves(&board).contains(&m) {
            break;
        }
        let san = board.move_to_san(m);
        if !text.is_empty() {
            text.push(' ');
        }
        if i == 0 || board.side_to_move() == Color::White {
            text.push_str(&numbered(&board, &san));
        } else {
            text.push_str(&san);
        }
        board.make_move(m);
    }
    text
}
