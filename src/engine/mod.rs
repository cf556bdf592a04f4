//! The engine: owns the game (position, options, transposition table), reacts to commands
//! from a front end and to reports from the search thread, and sends protocol-neutral
//! messages back. It never blocks on a search, so it answers `isready`, `stop` and `quit`
//! at once, even in the middle of a long one.

mod book;
mod draws;
pub mod learn;
mod options;
mod play;

use book::OpeningBook;
use learn::Learner;
pub use options::{Effect, Options, Shown};
use play::Play;

use crate::board::{Board, START_FEN};
use crate::calibration::{self, WdlModel};
use crate::comm::log::EngineLog;
use crate::comm::{CommIn, CommOut, GoParams, InfoLine, pv_text};
use crate::evaluator::Evaluator;
use crate::movegen::divide;
use crate::rules::Notation;
use crate::search::{
    Clock, Limits, Report, SearchHandle, SearchInfo, SearchOptions, SearchResult, Session, Signals,
    Strength, Syzygy,
};
use crate::tablebase::Tablebases;
use crate::types::{Color, Move};
use crossbeam_channel::{Receiver, Sender};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{SystemTime, UNIX_EPOCH};

/// Everything the engine loop reacts to, on one channel.
#[derive(Debug)]
pub enum Event {
    Comm(CommIn),
    Search(SearchEvent),
    /// Standard input ended: quit once the search running has been answered.
    InputClosed,
}

/// Reports from a search thread, tagged with the search's number so that reports from a
/// search already answered are dropped.
#[derive(Debug)]
pub enum SearchEvent {
    Line(u64, SearchInfo),
    CurrentMove {
        id: u64,
        depth: i32,
        mv: Move,
        number: usize,
    },
    /// The result is waiting on the search's own channel.
    Done(u64),
}

/// What a search is for, which decides what its result becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// A UCI `go`: answered with `bestmove`.
    Go,
    /// Our move in a game the engine plays: the move is made and announced.
    Think,
    /// Endless analysis: reports only.
    Analyze,
}

/// A search in progress.
struct Running {
    id: u64,
    purpose: Purpose,
    search: SearchHandle,
    root: Board,
    /// `go infinite` or `go ponder`: the best move waits for `stop` (or `ponderhit`).
    hold: bool,
    infinite: bool,
    /// A game move at limited strength: the move played is chosen among the lines.
    strength: Option<Strength>,
    /// The search is for a move of the game (not analysis, a mate search or `infinite`)...
    game_move: bool,
    /// ...unless it is a UCI `go ponder` that has had no `ponderhit` (yet).
    awaiting_ponderhit: bool,
    result: Option<SearchResult>,
    /// The last line of the best move sent, so that the final one is sent only when it
    /// says more.
    last_best: Option<InfoLine>,
}

pub struct Engine {
    board: Board,
    /// The table and the threads' histories and caches, kept from search to search in a
    /// game.
    session: Session,
    options: Options,
    /// The network from `EvalFile` (the built-in one by default), and that file's name.
    network: Evaluator,
    loaded_eval_file: String,
    /// Syzygy tables from the `SyzygyPath` option, when they opened.
    tablebases: Option<Arc<Tablebases>>,
    book: OpeningBook,
    /// Follows the game's scores for `Learning`.
    learner: Learner,
    /// Chooses among book moves, and among lines at limited strength.
    rng: ChaCha8Rng,
    debug: bool,
    events: Sender<Event>,
    out: Sender<CommOut>,
    running: Option<Running>,
    searches: u64,
    /// The protocol passes single moves and lets the engine play (XBoard).
    game_manager: bool,
    play: Play,
    /// Where `Debug Log File` writes the session's lines.
    log: Arc<EngineLog>,
}

impl Engine {
    pub fn new(
        events: Sender<Event>,
        out: Sender<CommOut>,
        game_manager: bool,
        log: Arc<EngineLog>,
    ) -> Engine {
        let options = Options::default();
        Engine {
            board: Board::startpos(),
            session: Session::new(options.hash_mb, SearchOptions::default()),
            network: Evaluator::built_in(),
            loaded_eval_file: String::new(),
            options,
            tablebases: None,
            book: OpeningBook::default(),
            learner: Learner::default(),
            // Games differ from run to run: the clock seeds the choices.
            rng: ChaCha8Rng::seed_from_u64(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
            debug: false,
            events,
            out,
            running: None,
            searches: 0,
            game_manager,
            play: Play::default(),
            log,
        }
    }

    /// Handles events until `quit`, or until the end of input and the search then running
    /// has been answered.
    pub fn run(mut self, events: Receiver<Event>) {
        let mut input_closed = false;
        for event in events {
            let carry_on = match event {
                Event::Comm(command) => self.command(command),
                Event::Search(report) => {
                    self.search_event(report);
                    true
                }
                Event::InputClosed => {
                    input_closed = true;
                    true
                }
            };
            if !carry_on || (input_closed && self.settled_at_end_of_input()) {
                break;
            }
        }
        // Quitting: end any search without a best move.
        if let Some(running) = self.running.take() {
            running.search.stop();
            running.search.join();
        }
    }

    fn send(&self, message: CommOut) {
        let _ = self.out.send(message);
    }

    /// Reacts to one command; false means quit.
    fn command(&mut self, command: CommIn) -> bool {
        if self.play_command(&command) {
            return true;
        }
        match command {
            CommIn::Identify => self.send(CommOut::Identity {
                name: format!("Ferrum {}", env!("CARGO_PKG_VERSION")),
                author: "the Ferrum developers".into(),
                options: Options::specs(Shown::Uci),
            }),
            CommIn::IsReady => self.send(CommOut::ReadyOk),
            CommIn::Debug(on) => self.debug = on,
            CommIn::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            CommIn::NewGame if self.game_manager => self.new_game(),
            CommIn::NewGame => {
                self.finish_search();
                self.clear_tables();
                self.board = self
                    .fresh_board(START_FEN)
                    .unwrap_or_else(|_| Board::startpos());
            }
            CommIn::Position { fen, moves } => match self.parse_position(fen.as_deref(), &moves) {
                Ok(board) => self.board = board,
                Err(e) => self.send(CommOut::Error(e)),
            },
            CommIn::Go(params) => self.go(params),
            CommIn::ShowBook => self.show_book(),
            CommIn::Stop => {
                if let Some(running) = &mut self.running {
                    running.hold = false;
                    running.search.signals().stop.store(true, Ordering::Relaxed);
                    self.maybe_finish();
                }
            }
            CommIn::PonderHit => {
                if let Some(running) = &mut self.running {
                    running
                        .search
                        .signals()
                        .ponder
                        .store(false, Ordering::Relaxed);
                    running.hold = running.infinite;
                    running.awaiting_ponderhit = false;
                    self.maybe_finish();
                }
            }
            CommIn::Quit => return false,
            CommIn::Ignore => {}
            CommIn::Invalid(reason) => self.send(CommOut::Error(reason)),
            CommIn::Unknown(command) => self.send(CommOut::Unknown(command)),
            _ => {}
        }
        true
    }

    /// Sets a spin option to `value` brought within its range.
    fn set_option_within(&mut self, name: &str, value: usize) {
        let (min, max) = Options::range(name).unwrap_or((0, i64::MAX));
        let value = (value as i64).clamp(min, max).to_string();
        self.set_option(name, Some(&value));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Effect::ResizeHash) => {
                self.finish_search();
                self.resize_table(self.options.hash_mb);
            }
            Ok(Effect::ClearHash) => self.clear_tables(),
            Ok(Effect::Chess960) => self.board.set_chess960(self.options.chess960),
            Ok(Effect::Tablebases) => {
                self.finish_search();
                self.open_tablebases();
            }
            Ok(Effect::Book) => self.open_book(),
            Ok(Effect::Log) => {
                if let Err(e) = self.log.open(&self.options.debug_log_file) {
                    self.send(CommOut::Notice(e));
                }
            }
            Ok(Effect::Network) => {
                self.finish_search();
                self.open_network();
            }
            Ok(Effect::Learn) => self.load_learned(true),
            Ok(Effect::None) => {}
            Err(e) => self.send(CommOut::Error(e)),
        }
        if self.debug {
            self.send(CommOut::Message(format!("options {:?}", self.options)));
        }
    }

    /// Opens the tables `SyzygyPath` names, closing those open before (the prober holds
    /// one set at a time). Failure is reported, and the engine plays on without tables.
    fn open_tablebases(&mut self) {
        self.tablebases = None;
        let path = self.options.syzygy_path.trim();
        if path.is_empty() {
            return;
        }
        match Tablebases::open(path) {
            Ok(tables) => {
                self.send(CommOut::Message(format!(
                    "Syzygy tables up to {} pieces from {path}",
                    tables.max_pieces()
                )));
                if let Some(report) = tables.problem_report() {
                    self.send(CommOut::Notice(report));
                }
                self.tablebases = Some(Arc::new(tables));
            }
            Err(e) => self.send(CommOut::Notice(e)),
        }
    }

    /// The evaluation the options ask for: `EvalFile`'s network, or the hand-crafted one.
    fn evaluator(&self) -> Evaluator {
        if self.options.use_nnue {
            self.network.clone()
        } else {
            Evaluator::hand_crafted()
        }
    }

    /// The win-draw-loss model of the evaluation in use, when UCI_ShowWDL is on.
    fn wdl_model(&self) -> Option<WdlModel> {
        self.options
            .show_wdl
            .then(|| self.evaluator().calibration().wdl)
    }

    /// Reads the network `EvalFile` names (the built-in one when empty). A file that cannot
    /// be used is reported, and the network in use stays, with its name.
    fn open_network(&mut self) {
        let path = self.options.eval_file.trim().to_string();
        if path.is_empty() {
            self.network = Evaluator::built_in();
            self.loaded_eval_file = path;
            return self.clear_tables();
        }
        match Evaluator::from_file(std::path::Path::new(&path)) {
            Ok(network) => {
                self.send(CommOut::Message(network.describe()));
                self.network = network;
                self.loaded_eval_file = path;
                self.clear_tables();
            }
            Err(e) => {
                self.send(CommOut::Error(format!(
                    "EvalFile: {e}; the network in use stays"
                )));
                self.options.eval_file = self.loaded_eval_file.clone();
            }
        }
    }

    /// The tables and how to probe them, for a search.
    fn syzygy(&self) -> Option<Syzygy> {
        self.tablebases.as_ref().map(|tables| Syzygy {
            tables: Arc::clone(tables),
            probe_depth: self.options.syzygy_probe_depth,
            probe_limit: self.options.syzygy_probe_limit,
            fifty_move_rule: self.options.syzygy_50_move_rule,
        })
    }

    /// Forgets what earlier searches learned: the table now, the thread data when the next
    /// search starts (a running search still holds it), the game's scores. What `Learning`
    /// learned in earlier games goes into the empty table.
    fn clear_tables(&mut self) {
        self.session.clear();
        self.learner.forget();
        self.load_learned(false);
    }

    /// A new table of `mb` MiB; on failure the old one stays and the reason is reported.
    fn resize_table(&mut self, mb: usize) {
        match self.session.resize(mb) {
            Ok(()) => self.load_learned(false),
            Err(e) => self.send(CommOut::Error(e)),
        }
        self.options.hash_mb = self.session.table().size_mb();
    }

    fn fresh_board(&self, fen: &str) -> Result<Board, String> {
        let mut board = Board::from_fen(fen).map_err(|e| format!("invalid FEN: {e}"))?;
        board.set_chess960(self.options.chess960);
        Ok(board)
    }

    /// The position after `moves`; an error leaves the current position as it is.
    fn parse_position(&self, fen: Option<&str>, moves: &[String]) -> Result<Board, String> {
        let mut board = self.fresh_board(fen.unwrap_or(START_FEN))?;
        for (i, text) in moves.iter().enumerate() {
            let m = board
                .parse_move(text)
                .map_err(|e| format!("move {} of the position: {e}", i + 1))?;
            board.make_move(m);
        }
        Ok(board)
    }

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

    fn go(&mut self, params: GoParams) {
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
    fn start_search(&mut self, limits: Limits, hold: bool, ponder: bool, purpose: Purpose) {
        let root = self.board.clone();
        self.start_search_from(root, limits, hold, ponder, purpose);
    }

    /// `start_search` from a given position (pondering searches the position after the
    /// reply we expect).
    fn start_search_from(
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
                    last_best: None,
                })
            }
            Err(e) => self.send(CommOut::Error(e)),
        }
    }

    /// Ends a running search and drops its result (the position or the plan changed).
    fn abort_search(&mut self) {
        self.play.stop_pondering();
        if let Some(running) = self.running.take() {
            running.search.stop();
            let _ = running.search.result();
            running.search.join();
        }
    }

    fn search_event(&mut self, report: SearchEvent) {
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
                if line.multipv == 1 {
                    running.last_best = Some(line.clone());
                }
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
    fn maybe_finish(&mut self) {
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
            let new = running.last_best.as_ref().is_none_or(|last| {
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
    fn settled_at_end_of_input(&mut self) -> bool {
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
    fn finish_search(&mut self) {
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

/// Runs a protocol over `input` and `output` until `quit` or the end of input: a reader
/// thread, this engine loop, and a writer thread.
///
/// `setup` commands (options from the command line) are handled before the first input is
/// read, so that a log they open has every line.
pub fn serve(
    comm: Arc<dyn crate::comm::Comm>,
    input: impl std::io::BufRead + Send + 'static,
    output: impl std::io::Write + Send + 'static,
    setup: Vec<CommIn>,
) {
    use crate::comm::io::{spawn_reader, spawn_writer};
    let (event_sender, events) = crossbeam_channel::unbounded();
    let (out_sender, out) = crossbeam_channel::unbounded();
    let log = Arc::new(EngineLog::default());
    let writer = spawn_writer(Arc::clone(&comm), Arc::clone(&log), out, output);
    let mut engine = Engine::new(
        event_sender.clone(),
        out_sender,
        comm.game_manager(),
        Arc::clone(&log),
    );
    for command in setup {
        engine.command(command);
    }
    // The reader may stay blocked on input after `quit`; it ends with the process.
    let _reader = spawn_reader(
        input,
        comm,
        log,
        event_sender,
        Event::Comm,
        Event::InputClosed,
    );
    engine.run(events);
    let _ = writer.join();
}

/// A search line for the front end: moves as text, and the win-draw-loss chances (by
/// `wdl_model`, when UCI_ShowWDL asks for them).
fn info_line(root: &Board, info: &SearchInfo, wdl_model: Option<WdlModel>) -> InfoLine {
    let mut line = info.with_pv(pv_text(root, &info.pv));
    line.wdl = wdl_model.map(|model| model.chances(info.score, calibration::material(root)));
    line
}
