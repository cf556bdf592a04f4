//! A session with the real binary over pipes, for the protocol tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub struct Session {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
}

/// A seeded xorshift step, for tests that play random moves reproducibly.
pub fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

pub const WAIT: Duration = Duration::from_secs(20);

impl Session {
    pub fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
        }
    }

    pub fn uci() -> Session {
        Session::uci_with(&[])
    }

    /// A UCI session started with these engine flags (`--hce`, `--syzygy DIR`...).
    pub fn uci_with(flags: &[&str]) -> Session {
        let mut s = Session::start(&[flags, &["uci"]].concat());
        s.send("uci");
        s.until(|l| l == "uciok");
        s
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(e) => panic!("{e:?} waiting; got {seen:#?}"),
            }
        }
    }

    /// The next line, or None if nothing comes within `wait`.
    pub fn next_within(&self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            Err(e) => panic!("{e:?}"),
        }
    }

    pub fn ready(&mut self) {
        self.send("isready");
        assert_eq!(
            self.until(|l| l == "readyok").last().map(String::as_str),
            Some("readyok")
        );
    }

    pub fn bestmove(&self) -> (Vec<String>, String) {
        let lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().clone();
        (lines, best)
    }

    pub fn perft(&mut self, depth: u32) -> u64 {
        self.send(&format!("go perft {depth}"));
        let lines = self.until(|l| l.starts_with("Nodes searched"));
        lines
            .last()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    pub fn exits_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
