//! Ferrum's side of the game: its move searched on a thread of its own (so that the person
//! can make it move at once, and their clock runs meanwhile), and hints for the person.

use super::Game;
use crate::rules::Notation;
use crate::search::{Clock, Limits, SearchOptions, SearchResult, Signals};
use crate::types::{Color, score_text};
use rand_chacha::rand_core::Rng;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Nodes of the search behind a hint: a fraction of a second, at full strength.
const HINT_NODES: u64 = 300_000;
/// Thinking time a move without a clock.
const UNTIMED_MOVE_MS: u64 = 1_000;

impl<W: Write> Game<'_, W> {
    /// Starts the clock of the side to move, and Ferrum's thinking when it is its move.
    pub(super) fn start_turn(&mut self) {
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
        let strength = self.settings.strength();
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
        self.session.options = SearchOptions {
            multipv,
            threads: self.settings.threads,
            syzygy: self.settings.syzygy.clone(),
            evaluator: self.settings.evaluator.clone(),
            ..SearchOptions::default()
        };
        let signals = Arc::new(Signals::default());
        match self
            .session
            .start(self.board.clone(), limits, signals, |_| {})
        {
            Ok(search) => {
                self.say("Ferrum is thinking... (Enter or 'stop': move now)");
                self.thinking = Some(search);
            }
            Err(e) => self.say(format!("error: {e}")),
        }
    }

    /// Ferrum's search ended: its move is played.
    pub(super) fn finish_thinking(&mut self, mut result: SearchResult) {
        if let Some(thinking) = self.thinking.take() {
            thinking.join();
        }
        if let Some(strength) = self.settings.strength() {
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
    pub(super) fn abort_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
            let _ = thinking.result();
            thinking.join();
        }
    }

    /// A full-strength suggestion for the person's move.
    pub(super) fn hint(&mut self) {
        if self.outcome.is_some() || self.board.side_to_move() != self.human {
            return self.say("A hint is for your move.");
        }
        self.session.options = SearchOptions {
            syzygy: self.settings.syzygy.clone(),
            evaluator: self.settings.evaluator.clone(),
            ..SearchOptions::default()
        };
        let limits = Limits::nodes(HINT_NODES);
        let result = self
            .session
            .run(&self.board, &limits, &Signals::default(), &mut |_| {});
        let found = result.best.map(|m| (m, result.score));
        match found {
            Some((m, score)) => {
                let san = self.board.move_to_san(m);
                self.say(format!("Hint: {san} ({} for you)", score_text(score)));
            }
            None => self.say("No hint: there is no legal move."),
        }
    }
}
