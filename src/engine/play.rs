//! Game-manager play (XBoard): the GUI passes moves one at a time and says which side the
//! engine plays; the engine decides when to think, plays its moves itself, claims results
//! by rule and resigns lost games.

use super::draws::Draws;
use super::{Engine, Options, Purpose, Shown};
use crate::board::{Board, START_FEN, placement};
use crate::comm::{CommIn, CommOut, EditOp};
use crate::movegen::legal_moves;
use crate::rules::{GameEnd, Notation};
use crate::search::{Clock, Limits, SearchResult, TimeManager};
use crate::types::{Color, Move, Piece, PieceType, Square};

/// Our evaluation, in centipawns, at or below which a game is lost...
const RESIGN_SCORE: i32 = -1_000;
/// ...for this many of our moves running.
const RESIGN_MOVES: u32 = 3;

/// The game as the GUI runs it.
#[derive(Clone, Debug)]
pub struct Play {
    /// Play neither side (also the state before `new`).
    pub force: bool,
    pub engine_color: Color,
    pub analyzing: bool,
    /// Thinking output on.
    pub post: bool,
    pub depth_limit: Option<i32>,
    pub move_time_ms: Option<u64>,
    /// Time counted in nodes at this rate per second (`nps`), instead of the clock.
    pub node_rate: Option<u64>,
    /// Moves per session (0: all), base and increment.
    pub level: Option<(u32, u64, u64)>,
    /// Plies played when the session began: at the game's start, or at the last `level`
    /// (python-chess sends one before every move, with the moves left as its MPS).
    session_start_ply: usize,
    pub own_time_cs: Option<i64>,
    /// Pondering allowed (`hard`).
    pub hard: bool,
    /// The reply we are pondering on, while we ponder.
    pondering_on: Option<Move>,
    hopeless_moves: u32,
    /// The reply we expect to our last move, for `hint`.
    pub expected_reply: Option<Move>,
    /// Draw offers, and the contempt from the ratings.
    pub draws: Draws,
    /// Root moves left out of the analysis (`exclude`), and the position they belong to
    /// (key and plies played): any other position starts with none excluded.
    excluded: Vec<Move>,
    excluded_at: (u64, usize),
}

impl Play {
    /// Forgets a ponder search (it is being ended).
    pub fn stop_pondering(&mut self) {
        self.pondering_on = None;
    }
}

impl Default for Play {
    fn default() -> Play {
        Play {
            force: true,
            engine_color: Color::Black,
            analyzing: false,
            post: true,
            depth_limit: None,
            move_time_ms: None,
            node_rate: None,
            level: None,
            session_start_ply: 0,
            own_time_cs: None,
            hard: false,
            pondering_on: None,
            hopeless_moves: 0,
            expected_reply: None,
            draws: Draws::default(),
            excluded: Vec::new(),
            excluded_at: (0, 0),
        }
    }
}

impl Engine {
    /// Handles a game-manager command; false means it was not one.
    pub(super) fn play_command(&mut self, command: &CommIn) -> bool {
        match command {
            CommIn::Features => {
                self.send(CommOut::Features {
                    name: format!("Ferrum {}", env!("CARGO_PKG_VERSION")),
                    options: Options::specs(Shown::XBoard),
                });
            }
            CommIn::Force => {
                self.abort_search();
                self.play.force = true;
            }
            CommIn::PlaySideToMove => {
                self.abort_search();
                self.play.force = false;
                self.play.engine_color = self.board.side_to_move();
                self.think();
            }
            CommIn::PlayOther => {
                self.abort_search();
                self.play.force = false;
                self.play.engine_color = !self.board.side_to_move();
            }
            CommIn::UserMove(text) => self.user_move(text),
            CommIn::OwnTime(cs) => self.play.own_time_cs = Some(*cs),
            CommIn::OpponentTime(_) => {}
            CommIn::TimeControl {
                moves,
                base_ms,
                inc_ms,
            } => {
                self.play.level = Some((*moves, *base_ms, *inc_ms));
                self.play.session_start_ply = self.board.plies_played();
                self.play.move_time_ms = None;
            }
            CommIn::FixedMoveTime(ms) => self.play.move_time_ms = Some(*ms),
            CommIn::DepthLimit(depth) => self.play.depth_limit = Some(*depth),
            CommIn::NodeRate(rate) => self.play.node_rate = (*rate > 0).then_some(*rate),
            CommIn::MoveNow => {
                if let Some(running) = &self.running
                    && running.purpose == Purpose::Think
                    && self.play.pondering_on.is_none()
                {
                    self.finish_search();
                }
            }
            // Not waiting for a table `memory` began: python-chess pings after each move,
            // and its client counts the wait as the engine's time.
            CommIn::Ping(n) => self.send(CommOut::Pong(n.clone())),
            CommIn::SetBoard(fen) => {
                self.abort_search();
                match self.fresh_board(fen) {
                    Ok(board) => {
                        self.board = board;
                        self.play.session_start_ply = 0;
                    }
                    Err(e) => self.send(CommOut::Error(format!("Illegal position: {e}"))),
                }
                self.resume_analysis();
            }
            CommIn::Undo(plies) => {
                self.abort_search();
                if self.board.plies_played() < *plies {
                    self.send(CommOut::Error(format!(
                        "command not legal now: no {plies} plies to take back"
                    )));
                } else {
                    (0..*plies).for_each(|_| self.board.unmake_move());
                }
                self.resume_analysis();
            }
            CommIn::Post(on) => self.play.post = *on,
            CommIn::Pondering(on) => {
                self.play.hard = *on;
                if !on && self.play.pondering_on.is_some() {
                    self.abort_search();
                }
            }
            CommIn::Analyze => {
                self.abort_search();
                self.play.analyzing = true;
                self.resume_analysis();
            }
            CommIn::RootFilter { mv, include } => self.filter_root(mv.as_deref(), *include),
            CommIn::ExitAnalyze => {
                self.play.analyzing = false;
                self.abort_search();
            }
            CommIn::Hint => {
                if let Some(m) = self.play.expected_reply.filter(|&m| self.board.is_legal(m)) {
                    self.send(CommOut::Hint(self.board.move_to_uci(m)));
                }
            }
            CommIn::DrawOffer => self.play.draws.offered = true,
            CommIn::Ratings { ours, theirs } => self.play.draws.set_ratings(*ours, *theirs),
            CommIn::GameOver => {
                self.abort_search();
                self.play.force = true;
            }
            // The GUI's share of memory and cores, within the options' ranges.
            CommIn::Memory(mb) => {
                self.abort_search();
                self.set_option_within("Hash", *mb);
            }
            CommIn::Cores(n) => self.set_option_within("Threads", *n),
            CommIn::Variant(name) => match name.as_str() {
                "normal" => self.set_chess960(false),
                "fischerandom" => self.set_chess960(true),
                other => self.send(CommOut::Error(format!("variant not supported: {other}"))),
            },
            CommIn::Edit(ops) => {
                self.abort_search();
                match self.edited(ops) {
                    Ok(board) => self.board = board,
                    Err(e) => self.send(CommOut::Error(format!("Illegal position: {e}"))),
                }
                self.resume_analysis();
            }
            _ => return false,
        }
        true
    }

    /// The position after an `edit` block: pieces changed, side to move kept, castling
    /// where king and rook stand on their starting squares, no en-passant square.
    fn edited(&self, ops: &[EditOp]) -> Result<Board, String> {
        let mut squares: Vec<Option<Piece>> =
            Square::all().map(|sq| self.board.piece_at(sq)).collect();
        let mut color = Color::White;
        for op in ops {
            match op {
                EditOp::Clear => squares.iter_mut().for_each(|p| *p = None),
                EditOp::SwitchColor => color = !color,
                EditOp::Put(letter, square) => {
                    let sq: Square = square.parse()?;
                    squares[sq.index()] =
                        PieceType::from_char(*letter).map(|kind| Piece::new(color, kind));
                }
            }
        }
        let placement = placement(|sq| squares[sq.index()]);
        let at = |s: &str| squares[s.parse::<Square>().map_or(0, |sq| sq.index())];
        let castling: String = [
            ("K", "e1", "h1", Piece::WhiteKing, Piece::WhiteRook),
            ("Q", "e1", "a1", Piece::WhiteKing, Piece::WhiteRook),
            ("k", "e8", "h8", Piece::BlackKing, Piece::BlackRook),
            ("q", "e8", "a8", Piece::BlackKing, Piece::BlackRook),
        ]
        .iter()
        .filter(|(_, k, r, king, rook)| at(k) == Some(*king) && at(r) == Some(*rook))
        .map(|(c, ..)| *c)
        .collect();
        let castling = if castling.is_empty() {
            "-".to_string()
        } else {
            castling
        };
        self.fresh_board(&format!(
            "{placement} {} {castling} - 0 1",
            self.board.side_to_move()
        ))
    }

    fn set_chess960(&mut self, on: bool) {
        self.options.chess960 = on;
        self.board.set_chess960(on);
    }

    /// `new`: the start position, the engine playing Black, no depth cap; thinking output,
    /// the time control, analysis and the ratings stay.
    pub(super) fn new_game(&mut self) {
        self.abort_search();
        self.clear_tables();
        self.board = self
            .fresh_board(START_FEN)
            .unwrap_or_else(|_| Board::startpos());
        let keep = (self.play.post, self.play.level, self.play.analyzing);
        let draws = std::mem::take(&mut self.play.draws);
        self.play = Play {
            force: false,
            engine_color: Color::Black,
            ..Play::default()
        };
        (self.play.post, self.play.level, self.play.analyzing) = keep;
        self.play.draws = draws;
        self.play.draws.new_game();
        self.resume_analysis();
    }

    fn user_move(&mut self, text: &str) {
        // The protocol writes castling in Fischer Random as `O-O` and `O-O-O`.
        let castling = matches!(text, "O-O" | "O-O-O" | "0-0" | "0-0-0");
        let parsed = if castling {
            self.board.parse_san(text)
        } else {
            self.board.parse_move(text)
        };
        let m = match parsed {
            Ok(m) => m,
            Err(e) => {
                let reason = if matches!(e, crate::rules::MoveError::Malformed(_)) {
                    "bad notation"
                } else {
                    "illegal"
                };
                self.send(CommOut::IllegalMove {
                    mv: text.to_string(),
                    reason: reason.into(),
                });
                return;
            }
        };
        // The reply we pondered on: the ponder search becomes our search, its clock
        // starting now, with the time we have now (the ponder search began with the time
        // we had before our last move).
        if self.play.pondering_on.take() == Some(m) && self.running.is_some() {
            self.board.make_move(m);
            let limits = self.play_limits();
            let Some(running) = &mut self.running else {
                return;
            };
            if let Ok(mut slot) = running.search.signals().ponderhit_limits.lock() {
                *slot = Some(limits);
            }
            running.hold = false;
            running
                .search
                .signals()
                .ponder
                .store(false, std::sync::atomic::Ordering::Relaxed);
            self.maybe_finish();
            return;
        }
        self.abort_search();
        self.board.make_move(m);
        if self.play.analyzing {
            self.resume_analysis();
        } else if !self.play.force && self.board.side_to_move() == self.play.engine_color {
            self.think();
        }
    }

    fn play_limits(&self) -> Limits {
        let limits = self.clock_limits();
        let Some(rate) = self.play.node_rate else {
            return limits;
        };
        // `nps`: the time we would aim for, as a node budget; no clock at all.
        let (soft_ms, _) = TimeManager::bounds_ms(&limits, 0);
        Limits {
            depth: limits.depth,
            nodes: Some(soft_ms.unwrap_or(0).saturating_mul(rate) / 1000),
            ..Limits::default()
        }
    }

    fn clock_limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.play.depth_limit,
            ..Limits::default()
        };
        if let Some(ms) = self.play.move_time_ms {
            limits.movetime_ms = Some(ms);
            return limits;
        }
        let (moves, base_ms, inc_ms) = self.play.level.unwrap_or((0, 60_000, 0));
        let time_ms = self
            .play
            .own_time_cs
            .map_or(base_ms as i64, |cs| cs.saturating_mul(10));
        let plies = self
            .board
            .plies_played()
            .saturating_sub(self.play.session_start_ply);
        limits.clock = Some(Clock {
            time_ms,
            inc_ms: inc_ms as i64,
            moves_to_go: moves_to_go(moves, plies),
        });
        limits
    }

    /// Starts thinking about our move, unless the game is already over by rule.
    fn think(&mut self) {
        if let Some((result, reason)) = self.board.game_over() {
            self.send(CommOut::Result {
                result,
                reason: reason.into(),
            });
            return;
        }
        if let Some(choice) = self.book_move(&[]) {
            if self.play.post {
                self.announce_book_move(choice);
            }
            return self.make_our_move(choice.mv, None);
        }
        let limits = self.play_limits();
        self.start_search(limits, false, false, Purpose::Think);
    }

    /// (Re)starts the endless analysis of the current position, in analyse mode, over the
    /// root moves not excluded.
    fn resume_analysis(&mut self) {
        if !self.play.analyzing {
            return;
        }
        let excluded = self.excluded_here();
        let searchmoves: Vec<Move> = legal_moves(&self.board)
            .iter()
            .copied()
            .filter(|m| !excluded.contains(m))
            .collect();
        if searchmoves.is_empty() {
            self.abort_search();
            return;
        }
        let limits = Limits {
            infinite: true,
            searchmoves,
            ..Limits::default()
        };
        self.start_search(limits, true, false, Purpose::Analyze);
    }

    /// The root moves excluded in the current position.
    fn excluded_here(&self) -> &[Move] {
        let here = (self.board.key(), self.board.plies_played());
        if self.play.excluded_at == here {
            &self.play.excluded
        } else {
            &[]
        }
    }

    /// `exclude`/`include` a root move (`None`: all of them), then analyse on.
    fn filter_root(&mut self, text: Option<&str>, include: bool) {
        let mut excluded = self.excluded_here().to_vec();
        match text.map(|t| self.board.parse_move(t)) {
            None if include => excluded.clear(),
            None => excluded = legal_moves(&self.board).to_vec(),
            Some(Ok(m)) if include => excluded.retain(|&e| e != m),
            Some(Ok(m)) if !excluded.contains(&m) => excluded.push(m),
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                return self.send(CommOut::Error(format!(
                    "{} {}: {e}",
                    if include { "include" } else { "exclude" },
                    text.unwrap_or_default()
                )));
            }
        }
        self.play.excluded = excluded;
        self.play.excluded_at = (self.board.key(), self.board.plies_played());
        self.resume_analysis();
    }

    /// Plays the move our search chose (or resigns a lost game) and claims a result by rule.
    pub(super) fn play_result(&mut self, result: &SearchResult) {
        let Some(best) = result.best else { return };
        // The search ran on a copy of this position; never make a move it does not fit.
        if !self.board.is_legal(best) {
            self.send(CommOut::Error(format!(
                "internal: search move {best} does not fit the position"
            )));
            return;
        }
        self.play.hopeless_moves = if result.score <= RESIGN_SCORE {
            self.play.hopeless_moves + 1
        } else {
            0
        };
        if self.options.resign && self.play.hopeless_moves >= RESIGN_MOVES {
            self.send(CommOut::Resign);
            self.play.force = true;
            return;
        }
        if self.wants_draw(result) {
            self.send(CommOut::OfferDraw);
        }
        self.make_our_move(best, result.ponder);
    }

    /// Plays our move, claims a result by rule, and ponders on `reply` if allowed.
    fn make_our_move(&mut self, m: Move, reply: Option<Move>) {
        self.send(CommOut::Move(self.board.move_to_uci(m)));
        self.board.make_move(m);
        self.play.expected_reply = reply;
        if let Some((result, reason)) = self.board.game_over() {
            self.send(CommOut::Result {
                result,
                reason: reason.into(),
            });
            return;
        }
        self.ponder();
    }

    /// With `hard`, searches the position after the reply we expect, on the opponent's
    /// time, holding the result until that reply comes.
    fn ponder(&mut self) {
        let Some(reply) = self
            .play
            .expected_reply
            .filter(|&m| self.play.hard && !self.play.force && self.board.is_legal(m))
        else {
            return;
        };
        let mut after = self.board.clone();
        after.make_move(reply);
        if after.game_over().is_some() {
            return;
        }
        // Our clock does not run while the opponent thinks: the limits hold after the reply.
        let limits = self.play_limits();
        self.start_search_from(after, limits, true, true, Purpose::Think);
        self.play.pondering_on = Some(reply);
    }
}

/// Moves left before the clock is refilled, with `moves` per session (0: the whole game)
/// and `plies` played since the session began; our move counts as one of them. Counted
/// from the session's start rather than the move number, so that games from a set-up
/// position and a `level` sent mid-game (as python-chess does) both come out right.
fn moves_to_go(moves: u32, plies: usize) -> Option<u32> {
    let played = (plies / 2) as u32;
    (moves > 0).then(|| moves - played % moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_left_in_the_session() {
        assert_eq!(moves_to_go(0, 10), None);
        // Level at the start: our first move (White or Black) has all 40 to go.
        assert_eq!(moves_to_go(40, 0), Some(40));
        assert_eq!(moves_to_go(40, 1), Some(40));
        assert_eq!(moves_to_go(40, 78), Some(1));
        assert_eq!(moves_to_go(40, 79), Some(1));
        // The clock refills after 40 moves: a new session.
        assert_eq!(moves_to_go(40, 80), Some(40));
        // A level sent just before our move counts from there.
        assert_eq!(moves_to_go(11, 0), Some(11));
    }
}
