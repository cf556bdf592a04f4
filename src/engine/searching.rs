//! The life of a search: `go` turned into limits, the search started with the options'
//! settings, its reports passed on as info lines, and its result answered (bestmove, or
//! the move played in an XBoard game) once nothing holds it back.

use super::{Engine, Event, SearchEvent};
use crate::board::Board;
use crate::calibration::WdlModel;
use crate::comm::{CommOut, GoParams, InfoLine, pv_text};
use crate::movegen::divide;
use crate::rules::Notation;
use crate::search::{
    Clock, Limits, Report, SearchHandle, SearchInfo, SearchOptions, SearchResult, Signals, Strength,
};
use crate::types::Color;
use rand_chacha::rand_core::Rng;
use std::sync::Arc;

/// What a search is for, which decides what its result becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    /// A UCI `go`: answered with `bestmove`.
    Go,
    /// Our move in a game the engine plays: the move is made and announced.
    Think,
    /// Endless analysis: reports only.
    Analyze,
}

/// A search in progress.
pub(super) struct Running {
    pub(super) id: u64,
    pub(super) purpose: Purpose,
    pub(super) search: SearchHandle,
    pub(super) root: Board,
    /// `go infinite` or `go ponder`: the best move waits for `stop` (or `ponderhit`).
    pub(super) hold: bool,
    pub(super) infinite: bool,
    /// A game move at limited strength: the move played is chosen among the lines.
    pub(super) strength: Option<Strength>,
    /// The search is for a move of the game (not analysis, a mate search or `infinite`)...
    pub(super) game_move: bool,
    /// ...unless it is a UCI `go ponder` that has had no `ponderhit` (yet).
    pub(super) awaiting_ponderhit: bool,
    pub(super) result: Option<SearchResult>,
    /// The last line sent, so that the final one is sent only when it says more: where
    /// other lines followed the best one, it is sent again, as clients that read one
    /// score take the last line's.
    pub(super) last_line: Option<InfoLine>,
}

impl Engine {
    fn limits(&self, params: &GoParams) -> Limits {
        let white = self.board.side_to_move() == Color::White;
        let (time, inc) = if white {
            (params.wtime, params.winc)
        } else {
            (params.btime, params.binc)
        };
        let searchmoves = params
            .searchmoves
            .iter()
            .filter_map(|m| self.board.parse_move(m).ok())
            .collect();
        Limits {
            depth: params.depth,
            nodes: params.nodes,
            movetime_ms: params.movetime,
            mate: params.mate,
            infinite: params.infinite,
            clock: time.map(|time_ms| Clock {
                time_ms,
                inc_ms: inc.unwrap_or(0),
                moves_to_go: params.movestogo,
            }),
            searchmoves,
        }
    }

    pub(super) fn go(&mut self, params: GoParams) {
        // One best move per `go`: a search still running ends first.
        self.finish_search();
        if let Some(depth) = params.perft {
            let mut board = self.board.clone();
            let rows: Vec<(String, u64)> = divide(&mut board, depth)
                .into_iter()
                .map(|(m, n)| (self.board.move_to_uci(m), n))
                .collect();
            let total = rows.iter().map(|r| r.1).sum();
            self.send(CommOut::Perft { rows, total });
            return;
        }
        for text in &params.searchmoves {
            if let Err(e) = self.board.parse_move(text) {
                self.send(CommOut::Error(format!("searchmoves: {e}")));
            }
        }
        let limits = self.limits(&params);
        // A game's move (not analysis, pondering or a mate search) comes from the book
        // when the book has one.
        let analysis = params.infinite || params.ponder || self.options.analyse_mode;
        if !analysis
            && params.mate.is_none()
            && let Some(choice) = self.book_move(&limits.searchmoves)
        {
            self.announce_book_move(choice);
            let best = Some(self.board.move_to_uci(choice.mv));
            let ponder = self.book_reply(choice.mv);
            self.send(CommOut::BestMove { best, ponder });
            return;
        }
        if self.debug {
            self.send(CommOut::Message(format!(
                "limits {limits:?}, options {:?}",
                self.options
            )));
        }
        self.start_search(
            limits,
            params.infinite || params.ponder,
            params.ponder,
            Purpose::Go,
        );
        if let Some(running) = &mut self.running {
            running.infinite = params.infinite;
        }
    }

    /// Starts searching the current position on a thread of its own. With `hold`, the
    /// result waits for `stop` (or `ponderhit`).
    pub(super) fn start_search(
        &mut self,
        limits: Limits,
        hold: bool,
        ponder: bool,
        purpose: Purpose,
    ) {
        let root = self.board.clone();
        self.start_search_from(root, limits, hold, ponder, purpose);
    }

    /// `start_search` from a given position (pondering searches the position after the
    /// reply we expect).
    pub(super) fn start_search_from(
        &mut self,
        root: Board,
        mut limits: Limits,
        hold: bool,
        ponder: bool,
        purpose: Purpose,
    ) {
        self.abort_search();
        // A strength limit weakens the moves of a game, never analysis.
        let game_move = match purpose {
            Purpose::Think => true,
            Purpose::Go => !limits.infinite && limits.mate.is_none() && !self.options.analyse_mode,
            Purpose::Analyze => false,
        };
        let evaluator = self.evaluator();
        let strength = self
            .options
            .strength(evaluator.calibration())
            .filter(|_| game_move);
        let mut multipv = if purpose == Purpose::Think {
            1
        } else {
            self.options.multipv
        };
        if let Some(strength) = strength {
            limits.nodes = Some(
                limits
                    .nodes
                    .map_or(strength.nodes(), |n| n.min(strength.nodes())),
            );
            multipv = multipv.max(strength.lines());
        }
        let awaiting_ponderhit = ponder && purpose == Purpose::Go;
        self.session.options = SearchOptions {
            multipv,
            threads: self.options.threads,
            move_overhead_ms: self.options.move_overhead_ms,
            params: self.options.params.clone(),
            syzygy: self.syzygy(),
            evaluator,
            // Analysis weighs a draw as a draw.
            contempt: if game_move { self.contempt() } else { 0 },
        };
        self.searches += 1;
        let id = self.searches;
        let events = self.events.clone();
        let report = move |r: Report| {
            let event = match r {
                Report::Line(info) => SearchEvent::Line(id, info.clone()),
                Report::CurrentMove { depth, mv, number } => SearchEvent::CurrentMove {
                    id,
                    depth,
                    mv,
                    number,
                },
                Report::Done => SearchEvent::Done(id),
            };
            let _ = events.send(Event::Search(event));
        };
        let signals = Arc::new(Signals::new(ponder));
        match self.session.start(root.clone(), limits, signals, report) {
            Ok(search) => {
                self.running = Some(Running {
                    id,
                    purpose,
                    search,
                    root,
                    hold,
                    infinite: false,
                    strength,
                    game_move,
                    awaiting_ponderhit,
                    result: None,
                    last_line: None,
                })
            }
            Err(e) => self.send(CommOut::Error(e)),
        }
    }

    /// Ends a running search and drops its result (the position or the plan changed).
    pub(super) fn abort_search(&mut self) {
        self.play.stop_pondering();
        if let Some(running) = self.running.take() {
            running.search.stop();
            let _ = running.search.result();
            running.search.join();
        }
    }

    pub(super) fn search_event(&mut self, report: SearchEvent) {
        let wdl_model = self.wdl_model();
        let Some(running) = &mut self.running else {
            return;
        };
        match report {
            SearchEvent::Line(id, info)
                if id == running.id && (running.purpose == Purpose::Go || self.play.post) =>
            {
                let mut line = info_line(&running.root, &info, wdl_model);
                // Under `nps` the time we report is the time we count: nodes at that rate.
                if running.purpose != Purpose::Go
                    && let Some(rate) = self.play.node_rate
                {
                    line.time = std::time::Duration::from_millis(line.nodes * 1000 / rate);
                }
                running.last_line = Some(line.clone());
                self.send(CommOut::Info(line));
            }
            SearchEvent::CurrentMove {
                id,
                depth,
                mv,
                number,
            } if id == running.id => {
                let mv = running.root.move_to_uci(mv);
                self.send(CommOut::CurrentMove { depth, mv, number });
            }
            SearchEvent::Done(id) if id == running.id => {
                running.result = running.search.result();
                self.maybe_finish();
            }
            _ => {}
        }
    }

    /// Sends the best move once the search has ended and may be answered.
    pub(super) fn maybe_finish(&mut self) {
        let ready = self
            .running
            .as_ref()
            .is_some_and(|r| r.result.is_some() && !r.hold);
        if !ready {
            return;
        }
        let Some(running) = self.running.take() else {
            return;
        };
        running.search.join();
        let Some(mut result) = running.result else {
            return;
        };
        if let Some(strength) = running.strength {
            strength.apply(&mut result, self.rng.next_u64());
        }
        // A game's move at full strength tells what the engine expects (`Learning`): after
        // the move is sent, as the learn file may be written.
        let teaches =
            running.game_move && !running.awaiting_ponderhit && running.strength.is_none();
        match running.purpose {
            Purpose::Go => {}
            Purpose::Think => {
                self.play_result(&result);
                if teaches {
                    self.learn_from(&running.root, &result);
                }
                return;
            }
            Purpose::Analyze => return,
        }
        let root = &running.root;
        if let Some(line) = result.lines.first() {
            let mut info = info_line(root, line, self.wdl_model());
            info.nodes = result.nodes;
            info.time = result.time;
            // The same line with a few more microseconds tells the GUI nothing new.
            let new = running.last_line.as_ref().is_none_or(|last| {
                let mut same_time = info.clone();
                same_time.time = last.time;
                *last != same_time
            });
            if new {
                self.send(CommOut::Info(info));
            }
        }
        let best = result.best.map(|m| root.move_to_uci(m));
        let ponder = result.best.zip(result.ponder).map(|(b, p)| {
            let mut after = root.clone();
            after.make_move(b);
            after.move_to_uci(p)
        });
        self.send(CommOut::BestMove { best, ponder });
        if teaches {
            self.learn_from(root, &result);
        }
    }

    /// After the end of input, whether nothing is left to answer. Piped commands get their
    /// answers: a search with a limit runs to it; one held for a command that will not come
    /// (infinite, pondering, analysis) ends now, a `go` answered as after `stop`, the rest
    /// (XBoard has no move to play yet) silently.
    pub(super) fn settled_at_end_of_input(&mut self) -> bool {
        match &self.running {
            None => true,
            Some(running) if !running.hold => false,
            Some(running) if running.purpose == Purpose::Go => {
                self.finish_search();
                true
            }
            Some(_) => {
                self.abort_search();
                true
            }
        }
    }

    /// Ends a running search at once and answers its `go`.
    pub(super) fn finish_search(&mut self) {
        let Some(running) = &mut self.running else {
            return;
        };
        running.hold = false;
        running.search.stop();
        if running.result.is_none() {
            running.result = running.search.result();
        }
        self.maybe_finish();
    }
}

/// A search line for the front end: moves as text, and the win-draw-loss chances (by
/// `wdl_model`, when UCI_ShowWDL asks for them).
fn info_line(root: &Board, info: &SearchInfo, wdl_model: Option<WdlModel>) -> InfoLine {
    let mut line = info.with_pv(pv_text(root, &info.pv));
    line.wdl = wdl_model.map(|model| model.chances(info.score, root.material()));
    line
}

#[cfg(test)]
mod tests {
    use super::super::tests::engine;
    use super::*;

    /// The side to move's clock counts, and searchmoves that are not moves are dropped.
    #[test]
    fn go_becomes_the_side_to_moves_limits() {
        let (mut engine, _) = engine();
        engine.board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        let params = GoParams {
            wtime: Some(60_000),
            btime: Some(5_000),
            winc: Some(1_000),
            binc: Some(50),
            movestogo: Some(12),
            searchmoves: vec!["e8d8".into(), "e2e4".into(), "junk".into()],
            ..GoParams::default()
        };
        let limits = engine.limits(&params);
        let clock = limits.clock.unwrap();
        assert_eq!(
            (clock.time_ms, clock.inc_ms, clock.moves_to_go),
            (5_000, 50, Some(12))
        );
        assert_eq!(
            limits.searchmoves,
            [engine.board.parse_move("e8d8").unwrap()]
        );
    }

    /// Info lines carry the moves as text, and chances only with a model.
    #[test]
    fn info_lines_show_moves_and_chances() {
        let root = Board::startpos();
        let info = SearchInfo::bare(3, 1, 35, vec![root.parse_move("e2e4").unwrap()]);
        let plain = info_line(&root, &info, None);
        assert_eq!((plain.pv, plain.wdl), (vec!["e2e4".to_string()], None));
        let model = crate::eval::CALIBRATION.wdl;
        let shown = info_line(&root, &info, Some(model));
        assert_eq!(shown.wdl, Some(model.chances(35, 78)));
    }
}
