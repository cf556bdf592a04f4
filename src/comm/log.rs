//! The engine log (`Debug Log File`, `--log`): every protocol line in and out, with its
//! time and direction, appended to a file that a user can send after a GUI session. The
//! engine writes it as it handles each line and sends each reply, so the log keeps their
//! order and starts exactly where the option took effect.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::Mutex;
use std::time::SystemTime;

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the GUI to the engine (written `>>`, as Stockfish's log does).
    In,
    /// From the engine to the GUI (`<<`).
    Out,
}

/// The log file, shared by the reader and writer threads and the engine that opens it.
#[derive(Debug, Default)]
pub struct EngineLog {
    file: Mutex<Option<File>>,
}

impl EngineLog {
    /// Appends to `path` from now on (an empty path stops logging); on failure the log is
    /// off and the error says why.
    pub fn open(&self, path: &str) -> Result<(), String> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        *file = None;
        let path = path.trim();
        if path.is_empty() {
            return Ok(());
        }
        let opened = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open the log file {path}: {e}; not logging"))?;
        *file = Some(opened);
        Ok(())
    }

    /// Whether a file is open: lines are written.
    pub fn is_open(&self) -> bool {
        self.file
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Writes one line. Each line is written whole and at once, so that the log is complete
    /// up to a crash; a write that fails turns the log off rather than the engine.
    pub fn line(&self, direction: Direction, text: &str) {
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let Some(file) = guard.as_mut() else { return };
        let arrow = match direction {
            Direction::In => ">>",
            Direction::Out => "<<",
        };
        let time = humantime::format_rfc3339_millis(SystemTime::now());
        if writeln!(file, "{time} {arrow} {text}").is_err() {
            *guard = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_appended_with_time_and_direction() {
        let dir = std::env::temp_dir().join(format!("ferrum-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engine.log");
        std::fs::write(&path, "earlier session\n").unwrap();
        let log = EngineLog::default();
        log.line(Direction::In, "not logged: no file yet");
        log.open(path.to_str().unwrap()).unwrap();
        log.line(Direction::In, "uci");
        log.line(Direction::Out, "uciok");
        log.open("").unwrap();
        log.line(Direction::In, "not logged: closed");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], "earlier session");
        // 2026-11-25T19:55:01.123Z >> uci
        let (time, rest) = lines[1].split_once(' ').unwrap();
        assert_eq!((time.len(), &time[10..11], rest), (24, "T", ">> uci"));
        assert!(lines[2].ends_with(" << uciok"));
        let bad = log.open(dir.join("no/such/dir/x.log").to_str().unwrap());
        assert!(bad.unwrap_err().contains("cannot open the log file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
