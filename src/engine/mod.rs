//! The engine: owns the game (position, options, transposition table), reacts to commands
//! from a front end and to reports from the search thread, and sends protocol-neutral
//! messages back. It never blocks on a search, so it answers `isready`, `stop` and `quit`
//! at once, even in the middle of a long one.

mod book;
mod configure;
mod declarations;
mod draws;
pub mod learn;
mod options;
mod play;
mod searching;

use book::OpeningBook;
use learn::Learner;
pub use options::{Effect, Options, Shown};
use play::Play;
use searching::{Purpose, Running};

use crate::board::{Board, START_FEN};
use crate::comm::log::{Direction, EngineLog};
use crate::comm::{Comm, CommIn, CommOut};
use crate::evaluator::Evaluator;
use crate::rules::Notation;
use crate::search::{SearchInfo, SearchOptions, Session};
use crate::tablebase::Tablebases;
use crate::types::Move;
use crossbeam_channel::{Receiver, Sender};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{SystemTime, UNIX_EPOCH};

/// Everything the engine loop reacts to, on one channel.
#[derive(Debug)]
pub enum Event {
    /// A line from the front end, and the command it parses to.
    Comm {
        line: String,
        command: CommIn,
    },
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
    /// How the protocol writes what the engine sends, for the log.
    comm: Arc<dyn Comm>,
    /// Where `Debug Log File` writes the session's lines, in and out, in the order the
    /// engine handles and sends them.
    log: EngineLog,
}

impl Engine {
    pub fn new(events: Sender<Event>, out: Sender<CommOut>, comm: Arc<dyn Comm>) -> Engine {
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
            game_manager: comm.game_manager(),
            play: Play::default(),
            comm,
            log: EngineLog::default(),
        }
    }

    /// Handles events until `quit`, or until the end of input and the search then running
    /// has been answered.
    pub fn run(mut self, events: Receiver<Event>) {
        let mut input_closed = false;
        for event in events {
            let carry_on = match event {
                Event::Comm { line, command } => {
                    self.log_line(Direction::In, &line);
                    self.command(command)
                }
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
        if self.log.is_open() {
            for line in self.comm.format(&message) {
                self.log_line(Direction::Out, &line);
            }
        }
        let _ = self.out.send(message);
    }

    /// Logs a line; a log that cannot be written any more is reported in the protocol's form.
    fn log_line(&self, direction: Direction, line: &str) {
        if let Err(e) = self.log.line(direction, line) {
            self.send(CommOut::Notice(e));
        }
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
            CommIn::IsReady => {
                // Ready means a table set by `setoption name Hash` is ready too.
                self.session.ready();
                self.send(CommOut::ReadyOk)
            }
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
    let writer = spawn_writer(Arc::clone(&comm), out, output);
    let mut engine = Engine::new(event_sender.clone(), out_sender, Arc::clone(&comm));
    for command in setup {
        engine.command(command);
    }
    // The reader may stay blocked on input after `quit`; it ends with the process.
    let _reader = spawn_reader(
        input,
        comm,
        event_sender,
        |line, command| Event::Comm { line, command },
        Event::InputClosed,
    );
    engine.run(events);
    let _ = writer.join();
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// An engine as a UCI session has it, and the channel of what it sends.
    pub(in crate::engine) fn engine() -> (Engine, Receiver<CommOut>) {
        let (events, _) = crossbeam_channel::unbounded();
        let (out, replies) = crossbeam_channel::unbounded();
        let engine = Engine::new(events, out, Arc::new(crate::comm::uci::Uci));
        (engine, replies)
    }

    #[test]
    fn a_bad_position_leaves_the_one_before() {
        let (mut engine, replies) = engine();
        let moves = |list: &[&str]| list.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        engine.command(CommIn::Position {
            fen: None,
            moves: moves(&["e2e4", "e7e5"]),
        });
        let before = engine.board.to_fen();
        engine.command(CommIn::Position {
            fen: None,
            moves: moves(&["e2e4", "e2e4"]),
        });
        assert_eq!(engine.board.to_fen(), before);
        let error = replies.try_iter().find_map(|r| match r {
            CommOut::Error(e) => Some(e),
            _ => None,
        });
        assert!(error.is_some_and(|e| e.contains("move 2 of the position")));
    }
}
