//! `ferrum play`: a person plays Ferrum in a terminal. Moves are typed in SAN or
//! coordinates; the board and the clocks are shown after each move. Ferrum thinks on a
//! thread of its own, so that `stop` (or Enter) makes it move at once, and the person's
//! clock runs, and can fall, while they think.

mod record;
mod view;

use crate::board::{Board, MoveError};
use crate::book::Book;
use crate::movegen::legal_moves;
use crate::search::{
    Clock, Limits, SEARCH_STACK, SearchOptions, SearchResult, Signals, Strength, Syzygy,
    ThreadData, TranspositionTable, search, strength,
};
use crate::types::{Color, MATE, Move, PieceType, Score, is_mate};
use crossbeam_channel::{Receiver, never, select};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use record::Record;
use std::io::{BufRead, Write};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
pub use view::terminal_takes_unicode;

const HELP: &str = "Type a move in SAN (Nf3, exd5, O-O, e8=Q) or coordinates (g1f3, e7e8q).
  stop, or Enter     while Ferrum thinks: make it move now
  undo               take back your last move and Ferrum's reply
  hint               Ferrum's suggestion for your move
  flip               turn the board around
  board              show the board again
  pgn                the game so far as PGN
  resign             give the game up
  new [white|black]  start a new game
  help               this list
  quit               leave";

/// Nodes of the search behind a hint: a fraction of a second, at full strength.
const HINT_NODES: u64 = 300_000;
/// Thinking time a move without a clock.
const UNTIMED_MOVE_MS: u64 = 1_000;
/// A game's time control: minutes for the game plus seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: i64,
    pub inc_ms: i64,
}

impl FromStr for TimeControl {
    type Err = String;

    /// `5+3` (five minutes, three seconds a move), `10` (ten minutes), `0.5+1`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("'{text}' is not a time control such as 5+3 (minutes+seconds)");
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
        let seconds: f64 = inc.trim().parse().map_err(|_| bad())?;
        let valid = |v: f64| v.is_finite() && v >= 0.0;
        if !valid(minutes) || !valid(seconds) || minutes > 24.0 * 60.0 || seconds > 3600.0 {
            return Err(bad());
        }
        if minutes == 0.0 && seconds == 0.0 {
            return Err(format!("'{text}' leaves no time to play"));
        }
        Ok(TimeControl {
            base_ms: (minutes * 60_000.0).round() as i64,
            inc_ms: (seconds * 1000.0).round() as i64,
        })
    }
}

impl TimeControl {
    /// As PGN's `TimeControl` tag writes it: `300+3`.
    fn pgn(self) -> String {
        format!("{}+{}", self.base_ms / 1000, self.inc_ms / 1000)
    }
}

/// The person's side: a colour, or one drawn at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
    Random,
}

impl FromStr for Side {
    type Err = String;

    fn from_str(text: &str) -> Result<Side, String> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Side::White),
            "black" | "b" => Ok(Side::Black),
            "random" | "r" => Ok(Side::Random),
            _ => Err(format!("'{text}' is not a side (white, black or random)")),
        }
    }
}

impl Side {
    fn color(self, rng: &mut ChaCha8Rng) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
            Side::Random if rng.next_u64() & 1 == 0 => Color::White,
            Side::Random => Color::Black,
        }
    }
}

/// How a game is set up.
#[derive(Clone)]
pub struct Settings {
    pub side: Side,
    /// `None`: no clocks, and Ferrum thinks about a second a move.
    pub time_control: Option<TimeControl>,
    /// Ferrum's strength, when limited (UCI_Elo's scale).
    pub elo: Option<u32>,
    /// The position to start from (FEN), else the standard one.
    pub fen: Option<String>,
    /// Finished games are appended here as PGN.
    pub pgn_out: Option<std::path::PathBuf>,
    pub unicode: bool,
    pub hash_mb: usize,
    pub threads: usize,
    pub syzygy: Option<Syzygy>,
    pub book: Option<Arc<Book>>,
}

/// A search of Ferrum's move, on its own thread.
struct Thinking {
    signals: Arc<Signals>,
    done: Receiver<(SearchResult, Vec<ThreadData>)>,
    thread: JoinHandle<()>,
}

/// How a finished game ended.
struct Outcome {
    result: &'static str,
    reason: String,
}

/// One game and everything around it.
struct Game<'o, W: Write> {
    settings: Settings,
    out: &'o mut W,
    board: Board,
    human: Color,
    /// The board is shown with Black at the bottom.
    black_below: bool,
    record: Record,
    /// Milliseconds left, by colour index; `None` without clocks.
    clocks: Option<[i64; 2]>,
    /// When the side to move began to think.
    turn_started: Instant,
    outcome: Option<Outcome>,
    thinking: Option<Thinking>,
    tt: Arc<TranspositionTable>,
    /// The search threads' history, with the search while Ferrum thinks.
    data: Vec<ThreadData>,
    rng: ChaCha8Rng,
    /// "Your move> " is the last thing written.
    prompted: bool,
}

/// The lines of `input`, from a thread of their own, so that a game can wait on the person
/// and on the search at once. The channel closes when the input ends.
pub fn read_lines(input: impl BufRead + Send + 'static) -> Receiver<String> {
    let (sender, lines) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Plays games against the person typing on `lines` (one message per line; the channel
/// closing ends the game) and writes what they see to `out`. Returns when they quit.
pub fn run(settings: Settings, lines: &Receiver<String>, out: &mut impl Write) {
    if let Some(elo) = settings.elo
        && !(strength::MIN_ELO..=strength::MAX_ELO).contains(&elo)
    {
        let (min, max) = (strength::MIN_ELO, strength::MAX_ELO);
        let _ = writeln!(out, "error: Elo {elo} is outside {min} to {max}");
        return;
    }
    let start = match settings.fen.as_deref().map(Board::from_fen).transpose() {
        Ok(board) => board.unwrap_or_else(Board::startpos),
        Err(e) => {
            let _ = writeln!(out, "error: invalid FEN: {e}");
            return;
        }
    };
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let human = settings.side.color(&mut rng);
    let tt = Arc::new(TranspositionTable::new(settings.hash_mb));
    let mut game = Game {
        record: Record::new(&start, String::new(), String::new(), String::new()),
        clocks: None,
        human,
        black_below: human == Color::Black,
        board: start,
        settings,
        out,
        turn_started: Instant::now(),
        outcome: None,
        thinking: None,
        tt,
        data: Vec::new(),
        rng,
        prompted: false,
    };
    game.new_game(human);
    game.play(lines);
    game.abort_thinking();
}

impl<W: Write> Game<'_, W> {
    fn say(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.out, "{}", text.as_ref());
        let _ = self.out.flush();
        self.prompted = false;
    }

    /// Asks for the person's move when it is theirs and the prompt is not the last thing
    /// on the screen already.
    fn prompt(&mut self) {
        let waiting = self.outcome.is_none()
            && self.thinking.is_none()
            && self.board.side_to_move() == self.human;
        if waiting && !self.prompted {
            let _ = write!(self.out, "Your move> ");
            let _ = self.out.flush();
            self.prompted = true;
        }
    }

    fn ferrum_name(&self) -> String {
        match self.settings.elo {
            Some(elo) => format!("Ferrum (Elo {elo})"),
            None => "Ferrum".into(),
        }
    }

    /// Sets up a new game from the start position of the settings, the person playing
    /// `human`.
    fn new_game(&mut self, human: Color) {
        self.abort_thinking();
        let start = self
            .settings
            .fen
            .as_deref()
            .and_then(|fen| Board::from_fen(fen).ok())
            .unwrap_or_else(Board::startpos);
        self.board = start;
        self.human = human;
        self.black_below = human == Color::Black;
        let (white, black) = match human {
            Color::White => ("You".to_string(), self.ferrum_name()),
            Color::Black => (self.ferrum_name(), "You".to_string()),
        };
        let tc = self.settings.time_control;
        self.record = Record::new(
            &self.board,
            white,
            black,
            tc.map_or("-".into(), TimeControl::pgn),
        );
        self.clocks = tc.map(|tc| [tc.base_ms; 2]);
        self.outcome = None;
        self.tt.clear();
        self.data.clear();
        let side = if human == Color::White {
            "White"
        } else {
            "Black"
        };
        let clock = tc.map_or("no clock".into(), |tc| {
            format!(
                "{} minutes + {} seconds a move",
                tc.base_ms as f64 / 60_000.0,
                tc.inc_ms as f64 / 1000.0
            )
        });
        self.say(format!(
            "New game: you play {side} against {}, {clock}. Type 'help' for commands.",
            self.ferrum_name()
        ));
        self.show_position();
        self.start_turn();
    }

    /// The main loop: input lines, Ferrum's results and the person's flag.
    fn play(&mut self, lines: &Receiver<String>) {
        loop {
            self.prompt();
            let done = self.thinking.as_ref().map(|t| t.done.clone());
            let flag = self.human_flag_in();
            select! {
                recv(lines) -> line => match line {
                    Ok(line) => {
                        if !self.command(line.trim()) {
                            return;
                        }
                    }
                    Err(_) => return,
                },
                recv(done.unwrap_or_else(never)) -> reply => {
                    if let Ok((result, data)) = reply {
                        self.finish_thinking(result, data);
                    }
                },
                default(flag) => {
                    self.check_human_flag();
                }
            }
        }
    }

    /// Time until the person's flag falls while it is their turn (a day otherwise).
    fn human_flag_in(&self) -> Duration {
        let day = Duration::from_secs(86_400);
        match self.clocks {
            Some(clocks) if self.outcome.is_none() && self.board.side_to_move() == self.human => {
                let left =
                    clocks[self.human.index()] - self.turn_started.elapsed().as_millis() as i64;
                Duration::from_millis(left.max(0) as u64 + 1)
            }
            _ => day,
        }
    }

    /// Handles one line; false to quit.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if self.thinking.is_some() {
            match tokens.as_slice() {
                [] | ["stop"] | ["move"] => {
                    if let Some(thinking) = &self.thinking {
                        thinking.signals.stop.store(true, Ordering::Relaxed);
                    }
                    return true;
                }
                ["quit"]
                | ["undo"]
                | ["resign"]
                | ["new", ..]
                | ["help"]
                | ["flip"]
                | ["board"]
                | ["pgn"]
                | ["d"] => {}
                _ => {
                    self.say("Ferrum is thinking: 'stop' or Enter makes it move now.");
                    return true;
                }
            }
        }
        match tokens.as_slice() {
            [] => {}
            ["quit"] | ["exit"] => return false,
            ["help"] | ["?"] => self.say(HELP),
            ["board"] | ["d"] => self.show_position(),
            ["flip"] => {
                self.black_below = !self.black_below;
                self.show_position();
            }
            ["pgn"] => {
                let (result, reason) = match &self.outcome {
                    Some(o) => (o.result, Some(o.reason.clone())),
                    None => ("*", None),
                };
                let pgn = self.record.pgn(result, reason.as_deref());
                self.say(pgn.trim_end());
            }
            ["new"] => self.new_game(self.human),
            ["new", side] => match side.parse::<Side>() {
                Ok(side) => {
                    let human = side.color(&mut self.rng);
                    self.new_game(human);
                }
                Err(e) => self.say(format!("error: {e}")),
            },
            ["undo"] | ["takeback"] => self.undo(),
            ["hint"] => self.hint(),
            ["resign"] => {
                if self.outcome.is_some() {
                    self.say("The game is already over: 'new' starts another.");
                } else {
                    self.abort_thinking();
                    let result = if self.human == Color::White {
                        "0-1"
                    } else {
                        "1-0"
                    };
                    self.end(result, "You resigned".into());
                }
            }
            [text] => self.human_move(text),
            _ => self.say(format!(
                "error: '{line}' is neither a move nor a command (type 'help')"
            )),
        }
        true
    }

    /// The person's move, checked and played; then Ferrum's turn.
    fn human_move(&mut self, text: &str) {
        if self.outcome.is_some() {
            return self.say("The game is over: 'new' starts another, 'pgn' shows it.");
        }
        if self.board.side_to_move() != self.human {
            return self.say("It is Ferrum's move.");
        }
        if self.check_human_flag() {
            return;
        }
        match self.board.parse_any_move(text) {
            Ok(m) => self.make_move(m),
            Err(e) => {
                let detail = self.move_error_detail(&e, text);
                self.say(format!("error: {e}{detail}"));
            }
        }
    }

    /// More help with a move that could not be played: the moves an ambiguous one may
    /// mean, or that the king is in check.
    fn move_error_detail(&self, error: &MoveError, text: &str) -> String {
        match error {
            MoveError::Ambiguous(_) => {
                let target = text.trim_end_matches(['+', '#', '!', '?']);
                let target = target.get(target.len().saturating_sub(2)..).unwrap_or("");
                let options: Vec<String> = legal_moves(&self.board)
                    .iter()
                    .filter(|m| m.to().to_string() == target)
                    .map(|&m| self.board.move_to_san(m))
                    .filter(|san| san.chars().next() == text.chars().next())
                    .collect();
                format!(" (say which: {})", options.join(", "))
            }
            MoveError::Illegal(_) if self.board.in_check() => " (your king is in check)".into(),
            MoveError::Malformed(_) => " (type 'help' for commands)".into(),
            MoveError::Illegal(_) => String::new(),
        }
    }

    /// Plays `m` for the side to move: the clock, the record, the board shown, and the
    /// end of the game or the next turn.
    fn make_move(&mut self, m: Move) {
        let mover = self.board.side_to_move();
        if let Some(clocks) = &mut self.clocks {
            let used = self.turn_started.elapsed().as_millis() as i64;
            let inc = self.settings.time_control.map_or(0, |tc| tc.inc_ms);
            clocks[mover.index()] += inc - used;
        }
        let number = self.record.move_number(self.record.len());
        let san = self.board.move_to_san(m);
        self.board.make_move(m);
        self.record.push(san.clone());
        let who = if mover == self.human {
            "You play"
        } else {
            "Ferrum plays"
        };
        self.say(format!("{who} {number} {san}"));
        self.show_position();
        if let Some((result, reason)) = self.board.game_over() {
            return self.end(result, reason.into());
        }
        self.start_turn();
    }

    /// Starts the clock of the side to move, and Ferrum's thinking when it is its move.
    fn start_turn(&mut self) {
        self.turn_started = Instant::now();
        if self.outcome.is_some() || self.board.side_to_move() == self.human {
            return;
        }
        if let Some(book) = &self.settings.book {
            let draw = self.rng.next_u64();
            if let Some(choice) = book.choose(&self.board, false, &[], draw) {
                self.say("Ferrum plays from its book.");
                return self.make_move(choice.mv);
            }
        }
        let strength = self.settings.elo.map(Strength::new);
        let mut limits = match self.clocks {
            Some(clocks) => Limits {
                clock: Some(Clock {
                    time_ms: clocks[self.board.side_to_move().index()],
                    inc_ms: self.settings.time_control.map_or(0, |tc| tc.inc_ms),
                    moves_to_go: None,
                }),
                ..Limits::default()
            },
            None => Limits::movetime(UNTIMED_MOVE_MS),
        };
        let mut multipv = 1;
        if let Some(strength) = strength {
            limits.nodes = Some(strength.nodes());
            multipv = strength.lines();
        }
        let options = SearchOptions {
            multipv,
            threads: self.settings.threads,
            syzygy: self.settings.syzygy.clone(),
            ..SearchOptions::default()
        };
        let signals = Arc::new(Signals::default());
        let (sender, done) = crossbeam_channel::bounded(1);
        let (board, tt, thread_signals) = (
            self.board.clone(),
            Arc::clone(&self.tt),
            Arc::clone(&signals),
        );
        let mut data = std::mem::take(&mut self.data);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let result = search(
                    &board,
                    &limits,
                    &tt,
                    &thread_signals,
                    &options,
                    &mut data,
                    &mut |_| {},
                );
                let _ = sender.send((result, data));
            });
        match spawned {
            Ok(thread) => {
                self.say("Ferrum is thinking... (Enter or 'stop': move now)");
                self.thinking = Some(Thinking {
                    signals,
                    done,
                    thread,
                });
            }
            Err(e) => self.say(format!("error: cannot start Ferrum's search: {e}")),
        }
    }

    /// Ferrum's search ended: its move is played.
    fn finish_thinking(&mut self, mut result: SearchResult, data: Vec<ThreadData>) {
        if let Some(thinking) = self.thinking.take() {
            let _ = thinking.thread.join();
        }
        self.data = data;
        if let Some(strength) = self.settings.elo.map(Strength::new) {
            strength.apply(&mut result, self.rng.next_u64());
        }
        let Some(m) = result.best.filter(|&m| self.board.is_legal(m)) else {
            return self.say("error: Ferrum's search gave no move");
        };
        let score = score_text(result.score);
        self.say(format!("(depth {}, {score} for Ferrum)", result.depth));
        if let Some(clocks) = self.clocks
            && clocks[self.board.side_to_move().index()]
                - (self.turn_started.elapsed().as_millis() as i64)
                < 0
        {
            let result = if self.human == Color::White {
                "1-0"
            } else {
                "0-1"
            };
            return self.end(result, "Ferrum lost on time".into());
        }
        self.make_move(m);
    }

    /// Stops Ferrum's search, if any, and drops its move.
    fn abort_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.signals.stop.store(true, Ordering::Relaxed);
            if let Ok((_, data)) = thinking.done.recv() {
                self.data = data;
            }
            let _ = thinking.thread.join();
        }
    }

    /// Ends the game on the person's time when their flag has fallen; true if it has.
    fn check_human_flag(&mut self) -> bool {
        let Some(clocks) = self.clocks else {
            return false;
        };
        if self.outcome.is_some() || self.board.side_to_move() != self.human {
            return false;
        }
        let left = clocks[self.human.index()] - self.turn_started.elapsed().as_millis() as i64;
        if left > 0 {
            return false;
        }
        // Time is up, but a side that cannot mate does not win on time.
        let ferrum = !self.human;
        let board = &self.board;
        let minors =
            board.pieces(ferrum, PieceType::Knight) | board.pieces(ferrum, PieceType::Bishop);
        let mating_material = !(board.pieces(ferrum, PieceType::Pawn)
            | board.pieces(ferrum, PieceType::Rook)
            | board.pieces(ferrum, PieceType::Queen))
        .is_empty()
            || minors.count() >= 2;
        self.say("");
        if mating_material {
            let result = if self.human == Color::White {
                "0-1"
            } else {
                "1-0"
            };
            self.end(result, "You lost on time".into());
        } else {
            self.end(
                "1/2-1/2",
                "Your time ran out, but Ferrum cannot mate".into(),
            );
        }
        true
    }

    /// Takes back the person's last move, and Ferrum's reply to it when made.
    fn undo(&mut self) {
        self.abort_thinking();
        let mut plies = if self.board.side_to_move() == self.human {
            2
        } else {
            1
        };
        // After a game that ended on the person's move, only that move goes back.
        if self.outcome.is_some() && self.board.side_to_move() != self.human {
            plies = 1;
        }
        let played = self.record.len();
        if played < plies {
            return self.say("There is no move of yours to take back.");
        }
        for _ in 0..plies {
            self.board.unmake_move();
            self.record.pop();
        }
        self.outcome = None;
        self.say(format!(
            "Took back {}.",
            if plies == 2 { "two moves" } else { "one move" }
        ));
        self.show_position();
        self.start_turn();
    }

    /// A full-strength suggestion for the person's move.
    fn hint(&mut self) {
        if self.outcome.is_some() || self.board.side_to_move() != self.human {
            return self.say("A hint is for your move.");
        }
        let board = self.board.clone();
        let tt = Arc::clone(&self.tt);
        let options = SearchOptions {
            syzygy: self.settings.syzygy.clone(),
            ..SearchOptions::default()
        };
        let mut data = std::mem::take(&mut self.data);
        let found = std::thread::scope(|scope| {
            let search = std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, || {
                    let limits = Limits::nodes(HINT_NODES);
                    let result = search(
                        &board,
                        &limits,
                        &tt,
                        &Signals::default(),
                        &options,
                        &mut data,
                        &mut |_| {},
                    );
                    result.best.map(|m| (m, result.score))
                });
            search.ok().and_then(|s| s.join().ok()).flatten()
        });
        self.data = data;
        match found {
            Some((m, score)) => {
                let san = self.board.move_to_san(m);
                self.say(format!("Hint: {san} ({} for you)", score_text(score)));
            }
            None => self.say("No hint: there is no legal move."),
        }
    }

    /// Ends the game with `result`; a finished game goes to the PGN file.
    fn end(&mut self, result: &'static str, reason: String) {
        self.say(format!("Game over: {result} ({reason})"));
        let pgn = self.record.pgn(result, Some(&reason));
        self.outcome = Some(Outcome { result, reason });
        if let Some(path) = self.settings.pgn_out.clone() {
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut file| writeln!(file, "{pgn}"));
            match written {
                Ok(()) => self.say(format!("The game was added to {}.", path.display())),
                Err(e) => self.say(format!("error: cannot write {}: {e}", path.display())),
            }
        }
        self.say("'new' starts another game, 'pgn' shows this one, 'quit' leaves.");
    }

    /// The board, whose move it is, and the clocks.
    fn show_position(&mut self) {
        let last = self.board.last_move().map(|m| (m.from(), m.to()));
        let board = view::board_text(&self.board, self.black_below, self.settings.unicode, last);
        let mut text = format!("\n{board}\n");
        if let Some(clocks) = self.clocks {
            let running = self.turn_started.elapsed().as_millis() as i64;
            let mover = self.board.side_to_move();
            let shown = |c: Color| {
                let left = clocks[c.index()]
                    - if c == mover && self.outcome.is_none() && self.thinking.is_some() {
                        running
                    } else {
                        0
                    };
                view::clock_text(left)
            };
            let (you, ferrum) = (self.human, !self.human);
            text.push_str(&format!(
                "Clocks: you {}, Ferrum {}\n",
                shown(you),
                shown(ferrum)
            ));
        }
        if self.outcome.is_none() {
            let side = if self.board.side_to_move() == Color::White {
                "White"
            } else {
                "Black"
            };
            let check = if self.board.in_check() {
                ", in check"
            } else {
                ""
            };
            text.push_str(&format!("{side} to move{check}"));
        }
        self.say(text.trim_end());
    }
}

/// A score as a person reads it: `+0.35`, `-1.20`, `mate in 3`, `mated in 2`.
fn score_text(score: Score) -> String {
    if is_mate(score) {
        let moves = (MATE - score.abs() + 1) / 2;
        if score > 0 {
            format!("mate in {moves}")
        } else {
            format!("mated in {moves}")
        }
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            "5+3".parse(),
            Ok(TimeControl {
                base_ms: 300_000,
                inc_ms: 3_000
            })
        );
        assert_eq!(
            "0.5".parse(),
            Ok(TimeControl {
                base_ms: 30_000,
                inc_ms: 0
            })
        );
        for bad in ["", "5+", "five", "-1+2", "0+0", "inf", "5+3+1", "99999"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn scores() {
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(MATE - 5), "mate in 3");
        assert_eq!(score_text(-(MATE - 4)), "mated in 2");
    }
}
