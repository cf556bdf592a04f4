//! The record of a terminal game: where it began, the moves in SAN, the players and the
//! result, written out as PGN.

use crate::board::{Board, START_FEN};
use crate::eco::Opening;
use crate::tools::pgn::{tag_line, wrap_movetext};
use std::fmt::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// A game as PGN needs it.
pub struct Record {
    pub white: String,
    pub black: String,
    /// PGN's `TimeControl` value: `300+3`, or `-` for none.
    pub time_control: String,
    start_fen: String,
    first_number: u16,
    black_first: bool,
    sans: Vec<String>,
    date: String,
}

impl Record {
    pub fn new(start: &Board, white: String, black: String, time_control: String) -> Record {
        Record {
            white,
            black,
            time_control,
            start_fen: start.to_fen(),
            first_number: start.fullmove_number(),
            black_first: start.side_to_move() == crate::types::Color::Black,
            sans: Vec::new(),
            date: today(),
        }
    }

    pub fn push(&mut self, san: String) {
        self.sans.push(san);
    }

    pub fn pop(&mut self) {
        self.sans.pop();
    }

    /// Moves played so far.
    pub fn len(&self) -> usize {
        self.sans.len()
    }

    /// The number and dots that go before the move at `index`: `12.` or `12...`.
    pub fn move_number(&self, index: usize) -> String {
        let ply = index + usize::from(self.black_first);
        let number = usize::from(self.first_number) + ply / 2;
        if ply.is_multiple_of(2) {
            format!("{number}.")
        } else {
            format!("{number}...")
        }
    }

    /// The game as PGN with `result` (`1-0`, `0-1`, `1/2-1/2` or `*`), its opening's name
    /// and, for a finished game, how it ended.
    pub fn pgn(
        &self,
        result: &str,
        termination: Option<&str>,
        opening: Option<&Opening>,
    ) -> String {
        let mut text = String::new();
        let mut tag = |name: &str, value: &str| {
            let _ = writeln!(text, "{}", tag_line(name, value));
        };
        tag("Event", "Ferrum terminal game");
        tag("Site", "?");
        tag("Date", &self.date);
        tag("Round", "-");
        tag("White", &self.white);
        tag("Black", &self.black);
        tag("Result", result);
        if let Some(opening) = opening {
            tag("ECO", opening.eco);
            tag("Opening", opening.name);
        }
        tag("TimeControl", &self.time_control);
        if self.start_fen != START_FEN {
            tag("SetUp", "1");
            tag("FEN", &self.start_fen);
        }
        if let Some(reason) = termination {
            tag("Termination", reason);
        }
        text.push('\n');
        let mut tokens = Vec::new();
        for (i, san) in self.sans.iter().enumerate() {
            let number = self.move_number(i);
            if i == 0 || !number.ends_with("...") {
                tokens.push(number);
            }
            tokens.push(san.clone());
        }
        tokens.push(result.to_string());
        text.push_str(&wrap_movetext(tokens));
        text
    }
}

/// Today's date as PGN writes it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_date(days as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date `days` after 1970-01-01, by counting 400-year eras of 146,097 days
/// from 0000-03-01 (so that the leap day falls at the end of a year).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_780), (2026, 11, 23));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }

    #[test]
    fn pgn_from_a_set_up_position() {
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40").unwrap();
        let mut record = Record::new(&board, "You".into(), "Ferrum".into(), "300+3".into());
        for san in ["Kd7", "e4", "Ke6"] {
            record.push(san.into());
        }
        let pgn = record.pgn("*", None, None);
        assert!(
            pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n"),
            "{pgn}"
        );
        assert!(pgn.contains("[SetUp \"1\"]"));
        assert!(pgn.ends_with("\n\n40... Kd7 41. e4 Ke6 *\n"), "{pgn}");
        assert_eq!(record.move_number(2), "41...");
    }

    #[test]
    fn long_games_wrap_and_tags_escape() {
        let mut record = Record::new(
            &Board::startpos(),
            "A \"quoted\" name".into(),
            "Ferrum".into(),
            "-".into(),
        );
        for _ in 0..30 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                record.push(san.into());
            }
        }
        let pgn = record.pgn("1/2-1/2", Some("Draw by repetition"), None);
        assert!(pgn.contains("[White \"A \\\"quoted\\\" name\"]"));
        assert!(!pgn.contains("[FEN"));
        assert!(pgn.contains("[Termination \"Draw by repetition\"]"));
        let moves: Vec<&str> = pgn.split("\n\n").nth(1).unwrap().lines().collect();
        assert!(moves.len() > 5 && moves.iter().all(|l| l.len() <= 79));
        assert!(moves[0].starts_with("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3"));
        assert!(pgn.ends_with(" 1/2-1/2\n"));
    }
}
