//! The threads that read standard input and write standard output for a protocol.

use super::{Comm, CommIn, CommOut};
use crossbeam_channel::{Receiver, Sender};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Splits a byte line into text lines: `\n`, `\r\n` and a lone `\r` all end a line, and
/// bytes that are not UTF-8 become U+FFFD.
pub fn split_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .split(['\n', '\r'])
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads `input` line by line, sending each line with the command it parses to through
/// `to_engine` (wrapped by `wrap`) and `on_close` once the input ends. Stops after `quit`.
/// The engine logs each line as it handles it: a log opened by a line logs every line
/// after it, however fast they came.
pub fn spawn_reader<E: Send + 'static>(
    mut input: impl BufRead + Send + 'static,
    comm: Arc<dyn Comm>,
    to_engine: Sender<E>,
    wrap: fn(String, CommIn) -> E,
    on_close: E,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    for line in split_lines(&buffer) {
                        let command = comm.parse(&line);
                        let quit = command == CommIn::Quit;
                        if to_engine.send(wrap(line, command)).is_err() || quit {
                            return;
                        }
                    }
                }
            }
        }
        let _ = to_engine.send(on_close);
    })
}

/// Writes every message from `from_engine` as text, flushing after each, until the channel
/// closes.
pub fn spawn_writer(
    comm: Arc<dyn Comm>,
    from_engine: Receiver<CommOut>,
    mut output: impl Write + Send + 'static,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        for message in from_engine {
            for line in comm.format(&message) {
                if writeln!(output, "{line}")
                    .and_then(|_| output.flush())
                    .is_err()
                {
                    return;
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_and_bad_bytes() {
        assert_eq!(split_lines(b"uci\r\n"), vec!["uci"]);
        assert_eq!(split_lines(b"isready\rgo\n"), vec!["isready", "go"]);
        assert_eq!(split_lines(b"  \r\n"), Vec::<String>::new());
        assert_eq!(split_lines(b"go \xff\xfe\n"), vec!["go \u{fffd}\u{fffd}"]);
    }
}
