//! What the person types during a game: moves in SAN or coordinates, and the game's
//! commands (undo, hint, flip, board, pgn, resign, new, help, quit).

use super::{Game, Side};
use crate::movegen::legal_moves;
use crate::rules::MoveError;
use crate::rules::Notation;
use crate::types::Color;
use std::io::Write;

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

impl<W: Write> Game<'_, W> {
    /// Handles one line; false to quit.
    pub(super) fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if self.thinking.is_some() {
            match tokens.as_slice() {
                [] | ["stop"] | ["move"] => {
                    if let Some(thinking) = &self.thinking {
                        thinking.stop();
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
                let pgn = self.record.pgn(result, reason.as_deref(), self.opening());
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
    pub(super) fn human_move(&mut self, text: &str) {
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
    pub(super) fn move_error_detail(&self, error: &MoveError, text: &str) -> String {
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

    /// Takes back the person's last move, and Ferrum's reply to it when made.
    pub(super) fn undo(&mut self) {
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
}
