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
    /// The file and the path it was opened by (for the message when a write fails).
    file: Mutex<Option<(File, String)>>,
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
        *file = Some((opened, path.to_string()));
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
    /// up to a crash; a write that fails (a full disk, a file gone) turns the log off rather
    /// than the engine, and the error says so, once.
    pub fn line(&self, direction: Direction, text: &str) -> Result<(), String> {
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let Some((file, path)) = guard.as_mut() else {
            return Ok(());
        };
        let arrow = match direction {
            Direction::In => ">>",
            Direction::Out => "<<",
        };
        let time = humantime::format_rfc3339_millis(SystemTime::now());
        let line = format!("{time} {arrow} {text}\n");
        if let Err(e) = file.write_all(line.as_bytes()) {
            let message = format!("cannot write the log file {path}: {e}; not logging");
            *guard = None;
            return Err(message);
        }
        Ok(())
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
        log.line(Direction::In, "not logged: no file yet").unwrap();
        log.open(path.to_str().unwrap()).unwrap();
        log.line(Direction::In, "uci").unwrap();
        log.line(Direction::Out, "uciok").unwrap();
        log.open("").unwrap();
        log.line(Direction::In, "not logged: closed").unwrap();
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

    /// A full disk: the first line that cannot be written is reported and logging stops.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_turns_the_log_off_with_an_error() {
        let log = EngineLog::default();
        log.open("/dev/full").unwrap();
        let err = log.line(Direction::In, "uci").unwrap_err();
        assert!(err.contains("cannot write the log file /dev/full"), "{err}");
        assert!(!log.is_open());
        assert_eq!(log.line(Direction::In, "isready"), Ok(()));
    }
}
