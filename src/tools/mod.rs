//! Tools around the engine proper: game annotation, bench, EPD test suites, perft suites, self-play data and
//! what is done with it, the tuner, PGN and books.

pub mod annotate;
pub mod bench;
pub mod data;
pub mod datagen;
pub mod eco;
pub mod epd;
pub mod epd_test;
pub mod evaluate;
pub mod interrupt;
pub mod makebook;
pub mod movetext;
pub mod perft_suite;
pub mod pgn;
pub mod tune;

/// `, 1:02:03 left` for a progress line, or nothing when the time left is unknown.
pub fn time_left(seconds: Option<f64>) -> String {
    seconds.map_or(String::new(), |s| {
        let s = s as u64;
        format!(", {}:{:02}:{:02} left", s / 3600, s / 60 % 60, s % 60)
    })
}
