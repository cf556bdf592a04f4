//! `ferrum play`: a person plays Ferrum in a terminal. Moves are typed in SAN or
//! coordinates; the board and the clocks are shown after each move. Ferrum thinks on a
//! thread of its own, so that `stop` (or Enter) makes it move at once, and the person's
//! clock runs, and can fall, while they think.

mod commands;
mod record;
mod settings;
mod thinking;
mod view;

use crate::board::Board;
use crate::eco::{Opening, OpeningNames};
use crate::rules::{GameEnd, Notation};
use crate::search::{SearchHandle, SearchOptions, Session, strength};
use crate::types::{Color, Move, PieceType};
use crossbeam_channel::{Receiver, never, select};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use record::Record;
pub use settings::{Settings, Side, TimeControl};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
pub use view::terminal_takes_unicode;

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
    /// Ferrum's search of its move, while it thinks.
    thinking: Option<SearchHandle>,
    /// The table and histories of Ferrum's searches in this game.
    session: Session,
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
    let session = Session::new(settings.hash_mb, SearchOptions::default());
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
        session,
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
        self.session.clear();
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
            let done = self.thinking.as_ref().map(|t| t.done().clone());
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
                    if let Ok(result) = reply {
                        self.finish_thinking(result);
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

    /// Ends the game with `result`; a finished game goes to the PGN file.
    fn end(&mut self, result: &'static str, reason: String) {
        self.say(format!("Game over: {result} ({reason})"));
        let pgn = self.record.pgn(result, Some(&reason), self.opening());
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

    /// The name of the game's opening: that of its last named position.
    fn opening(&self) -> Option<&'static Opening> {
        OpeningNames::get().of_game(&self.board)
    }

    /// The board, the clocks, the opening while the position has a name, and whose move it
    /// is.
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
        if let Some(opening) = OpeningNames::get().of_position(&self.board) {
            text.push_str(&format!("Opening: {opening}\n"));
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
