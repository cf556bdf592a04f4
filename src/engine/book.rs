//! The engine's opening book: opened from the `BookFile` option, consulted before a search
//! when `OwnBook` is on, and its move played at once.

use super::Engine;
use crate::book::{Book, BookMove};
use crate::comm::CommOut;
use crate::rules::Notation;
use crate::types::Move;
use rand_chacha::rand_core::Rng;
use std::path::Path;

/// The book, when one is open.
#[derive(Default)]
pub struct OpeningBook {
    book: Option<Book>,
}

impl Engine {
    /// Opens the book `BookFile` names (none when it is empty). A book that cannot be read
    /// is reported, and the engine plays on without one.
    pub(super) fn open_book(&mut self) {
        self.book.book = None;
        let path = self.options.book_file.trim();
        if path.is_empty() {
            return;
        }
        match Book::open(Path::new(path)) {
            Ok(book) => {
                self.send(CommOut::Message(format!(
                    "book {path}: {} entries",
                    book.len()
                )));
                self.book.book = Some(book);
            }
            Err(e) => self.send(CommOut::Notice(format!("{e}; playing without a book"))),
        }
    }

    /// The book's move for the current position, among `allowed` (all if empty), when
    /// `OwnBook` is on and the book has one.
    pub(super) fn book_move(&mut self, allowed: &[Move]) -> Option<BookMove> {
        if !self.options.own_book {
            return None;
        }
        let book = self.book.book.as_ref()?;
        let draw = self.rng.next_u64();
        book.choose(&self.board, self.options.best_book_move, allowed, draw)
    }

    /// The book's heaviest reply to our move `mv`, as the move to ponder on.
    pub(super) fn book_reply(&self, mv: Move) -> Option<String> {
        let mut after = self.board.clone();
        after.make_move(mv);
        let reply = self.book.book.as_ref()?.moves(&after).first()?.mv;
        Some(after.move_to_uci(reply))
    }

    /// Announces a book move (the protocols show it as such).
    pub(super) fn announce_book_move(&self, choice: BookMove) {
        self.send(CommOut::BookMove {
            mv: self.board.move_to_uci(choice.mv),
            weight: choice.weight,
        });
    }

    /// XBoard `bk`: the book's moves here with their weights.
    pub(super) fn show_book(&self) {
        let moves = self.book.book.as_ref().map_or(Vec::new(), |book| {
            book.moves(&self.board)
                .into_iter()
                .map(|m| (self.board.move_to_san(m.mv), m.weight))
                .collect()
        });
        self.send(CommOut::BookMoves(moves));
    }
}
