//! A search session: what every caller of the search holds, whether it is the engine
//! behind a protocol, the terminal game, the console, bench, the EPD runner or datagen.
//!
//! A session owns the transposition table, each search thread's data (histories and
//! caches kept from one search to the next in a game) and the options the searches run
//! with, and it runs each search on a thread with the stack the search needs. A new
//! evaluation or a new option given to `SearchOptions` therefore reaches every mode at once.

use super::{Report, SearchOptions, SearchResult, Signals, ThreadData, TranspositionTable};
use crate::board::Board;
use crate::eval::PawnTable;
use crate::evaluator::Evaluator;
use crate::search::Limits;
use crate::types::{Move, Score};
use crossbeam_channel::Receiver;
use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{JoinHandle, Scope, ScopedJoinHandle};

/// Stack for any thread that searches: deep recursion with move lists on the stack.
const SEARCH_STACK: usize = 64 << 20;

thread_local! {
    /// This thread was started with `SEARCH_STACK`: a search can run on it directly.
    static ON_SEARCH_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Starts a thread with the stack a search needs (a datagen worker, say), so that the
/// sessions it uses search on it directly.
pub fn spawn_scoped<'scope, T: Send + 'scope>(
    scope: &'scope Scope<'scope, '_>,
    name: &str,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(SEARCH_STACK)
        .spawn_scoped(scope, move || {
            ON_SEARCH_STACK.set(true);
            f()
        })
}

/// `spawn_scoped` for a thread that outlives its caller.
fn spawn<T: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<JoinHandle<T>> {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            ON_SEARCH_STACK.set(true);
            f()
        })
}

/// The table, the thread data and the options of a series of searches (a game, a test
/// suite, a run of datagen games).
pub struct Session {
    tt: Arc<TranspositionTable>,
    /// A new table being faulted in on a thread of its own (`resize`), to replace `tt`
    /// once it is ready.
    resized: Option<(usize, JoinHandle<TranspositionTable>)>,
    data: Arc<Mutex<Vec<ThreadData>>>,
    /// `clear` came: the next search starts with fresh thread data (a running search may
    /// still hold the data when it comes).
    forget: bool,
    /// Threads, MultiPV, tablebases and the search constants of the next searches.
    pub options: SearchOptions,
}

impl Session {
    /// A session with a table of `hash_mb` MiB (at least 1; a size that cannot be had
    /// panics, as at start-up nothing else could be done: use `resize` for sizes that
    /// come from outside).
    pub fn new(hash_mb: usize, options: SearchOptions) -> Session {
        Session {
            tt: Arc::new(TranspositionTable::new(hash_mb.max(1))),
            resized: None,
            data: Arc::default(),
            forget: false,
            options,
        }
    }

    /// The transposition table the next search would use if it started now.
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// The size in MiB of the table the searches will use (a new one being made, if any).
    pub fn table_mb(&self) -> usize {
        self.resized
            .as_ref()
            .map_or(self.tt.size_mb(), |(mb, _)| *mb)
    }

    /// A new table of `mb` MiB. On failure the old one stays and the reason is returned.
    ///
    /// The memory is had at once, but faulting it in takes milliseconds a MiB (huge pages),
    /// and an XBoard GUI sends `memory` just before `go` with no `ping` between: so the new
    /// table is touched on a thread of its own, and the searches that start before it is
    /// ready use the old one. `ready` waits for it (UCI's `isready`, which GUIs send
    /// after `setoption` and before the clock starts).
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        self.ready();
        let table = TranspositionTable::try_new_untouched(mb, self.tt.size_mb())?;
        let mb = table.size_mb();
        let touch = move || {
            let mut table = table;
            table.clear_exclusive();
            table
        };
        let thread = std::thread::Builder::new()
            .name("hash".into())
            .spawn(touch)
            .map_err(|e| format!("cannot start a thread to make the table: {e}"))?;
        self.resized = Some((mb, thread));
        Ok(())
    }

    /// Waits until a table that `resize` began is ready and uses it from now on.
    pub fn ready(&mut self) {
        self.take_resized(true);
    }

    /// Takes the new table of `resize` if it is ready, or in any case if `wait`.
    fn take_resized(&mut self, wait: bool) {
        if self
            .resized
            .as_ref()
            .is_some_and(|(_, t)| wait || t.is_finished())
        {
            let (_, thread) = self.resized.take().expect("checked above");
            match thread.join() {
                Ok(table) => self.tt = Arc::new(table),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    }

    /// Forgets what earlier searches learned: the table now, the thread data when the next
    /// search starts.
    pub fn clear(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear_exclusive(),
            // A search started by `start` still holds the table.
            None => self.tt.clear(),
        }
        self.forget = true;
    }

    /// Puts positions learned in earlier games (`Learning`) into the table: each with the
    /// exact score of a search as deep as the depth given, and its best move. They stay
    /// ahead of other positions until the table is cleared (`TranspositionTable::
    /// store_learned`). `evaluator` is the evaluation the next searches use: each entry
    /// carries its value of the position, as entries the search makes do.
    pub fn learn<'b>(
        &mut self,
        positions: impl IntoIterator<Item = (&'b Board, Move, Score, i32)>,
        evaluator: &Evaluator,
    ) {
        // Into the table the searches will use.
        self.ready();
        let mut pawns = PawnTable::new();
        for (board, mv, score, depth) in positions {
            let eval = super::stored_eval(board, evaluator, &mut pawns);
            self.tt.store_learned(board.key(), mv, score, eval, depth);
        }
    }

    /// Each search thread's data (the calling thread's first), for statistics.
    pub fn thread_data(&self) -> MutexGuard<'_, Vec<ThreadData>> {
        lock(&self.data)
    }

    /// Searches `board` within `limits` on a thread with the search's stack and waits for
    /// the result. `signals` may stop it from another thread; `report` hears its lines.
    pub fn run(
        &mut self,
        board: &Board,
        limits: &Limits,
        signals: &Signals,
        report: &mut (dyn FnMut(Report) + Send),
    ) -> SearchResult {
        self.ready();
        let forget = std::mem::take(&mut self.forget);
        let (tt, data, options) = (&*self.tt, &*self.data, &self.options);
        let mut go = move || {
            let mut data = lock(data);
            if forget {
                data.clear();
            }
            super::search(board, limits, tt, signals, options, &mut data, report)
        };
        if ON_SEARCH_STACK.get() {
            return go();
        }
        let joined = std::thread::scope(|scope| {
            let thread = std::thread::Builder::new()
                .name("search".into())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, &mut go);
            thread.ok().map(ScopedJoinHandle::join)
        });
        match joined {
            Some(Ok(result)) => result,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            // No thread to be had: the caller's stack has to do.
            None => go(),
        }
    }

    /// Starts searching `board` on a thread of its own; the handle stops it and takes the
    /// result. `report` hears the lines as they come.
    pub fn start(
        &mut self,
        board: Board,
        limits: Limits,
        signals: Arc<Signals>,
        mut report: impl FnMut(Report) + Send + 'static,
    ) -> Result<SearchHandle, String> {
        // Not on the clock: a table still being made waits for a later search.
        self.take_resized(false);
        let forget = std::mem::take(&mut self.forget);
        let (tt, data, options) = (
            Arc::clone(&self.tt),
            Arc::clone(&self.data),
            self.options.clone(),
        );
        let (sender, done) = crossbeam_channel::bounded(1);
        let thread_signals = Arc::clone(&signals);
        let thread = spawn("search", move || {
            let mut data = lock(&data);
            if forget {
                data.clear();
            }
            let result = super::search(
                &board,
                &limits,
                &tt,
                &thread_signals,
                &options,
                &mut data,
                &mut report,
            );
            drop(data);
            let _ = sender.send(result);
            report(Report::Done);
        })
        .map_err(|e| format!("cannot start the search: {e}"))?;
        Ok(SearchHandle {
            thread,
            done,
            signals,
        })
    }
}

/// A search running on its own thread.
pub struct SearchHandle {
    thread: JoinHandle<()>,
    done: Receiver<SearchResult>,
    signals: Arc<Signals>,
}

impl SearchHandle {
    /// The flags that steer the search (stop, ponder).
    pub fn signals(&self) -> &Signals {
        &self.signals
    }

    /// Tells the search to end as soon as it can (and to stop pondering).
    pub fn stop(&self) {
        self.signals.ponder.store(false, Ordering::Relaxed);
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    /// The channel the result arrives on, once, for `select!`.
    pub fn done(&self) -> &Receiver<SearchResult> {
        &self.done
    }

    /// Waits for the result; `None` if it was already taken from `done`.
    pub fn result(&self) -> Option<SearchResult> {
        self.done.recv().ok()
    }

    /// Waits for the thread to end (after its result was sent).
    pub fn join(self) {
        let _ = self.thread.join();
    }
}

/// The thread data, even if a search thread panicked while holding it (the data are
/// heuristics: any state of them is usable).
fn lock(data: &Mutex<Vec<ThreadData>>) -> MutexGuard<'_, Vec<ThreadData>> {
    data.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new size takes effect for the searches once its table is ready: a search started
    /// at once runs (on the old table), `ready` swaps the new one in, and a size that
    /// cannot be had leaves the table as it was.
    #[test]
    fn a_resized_table_is_made_beside_the_searches() {
        let mut session = Session::new(1, SearchOptions::default());
        session.resize(8).unwrap();
        assert_eq!(session.table_mb(), 8);
        let handle = session
            .start(Board::startpos(), Limits::depth(4), Arc::default(), |_| {})
            .unwrap();
        assert!(handle.result().unwrap().best.is_some());
        handle.join();
        session.ready();
        assert!(session.resized.is_none());
        assert_eq!(session.tt.size_mb(), 8);
        assert!(session.resize(usize::MAX >> 20).is_err());
        assert_eq!(session.table_mb(), 8);
        let result = session.run(
            &Board::startpos(),
            &Limits::depth(4),
            &Signals::default(),
            &mut |_| {},
        );
        assert!(result.best.is_some());
    }
}
