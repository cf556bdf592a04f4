//! Ctrl-C for the long tools (datagen, annotate): the first one sets a flag that the tool
//! polls to finish what it can and write a valid output; a second ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C once `catch` has been called.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C came.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// From now on, Ctrl-C sets the flag rather than ending the process (the first time).
#[cfg(target_os = "linux")]
pub fn catch() {
    extern "C" fn on_interrupt(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::Relaxed);
        // A second Ctrl-C ends the process at once.
        unsafe { libc::signal(libc::SIGINT, libc::SIG_DFL) };
    }
    // SAFETY: the handler only stores to an atomic and restores the default action, both
    // async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        )
    };
}

#[cfg(not(target_os = "linux"))]
pub fn catch() {}
