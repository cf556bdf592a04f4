//! libFuzzer target: the `pgn` reader of tests/fuzzing/readers.rs.
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/fuzzing/readers.rs"]
mod readers;

libfuzzer_sys::fuzz_target!(|input: &[u8]| readers::pgn(input));
