//! Zeroed memory for the transposition table, backed by huge pages where the system allows:
//! the table is probed at random, and with 4 KiB pages most probes would also miss the TLB.
//! On Linux the memory is an anonymous mapping advised before first use, so that its pages
//! are faulted in as huge pages; elsewhere it comes from the global allocator.

use std::ops::Deref;
use std::ptr::NonNull;

/// A fixed-length array of `T` whose all-zero bit pattern is a valid value.
pub struct TableMemory<T> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the buffer is owned exclusively and `T` itself is shared as `&T`.
unsafe impl<T: Sync> Sync for TableMemory<T> {}
unsafe impl<T: Send> Send for TableMemory<T> {}

impl<T> TableMemory<T> {
    /// `len` zeroed values (at least one), or `None` if the memory cannot be had.
    ///
    /// # Safety
    /// All-zero bits must be a valid `T` (atomics and integers are).
    pub unsafe fn try_zeroed(len: usize) -> Option<TableMemory<T>> {
        let len = len.max(1);
        let size = std::mem::size_of::<T>().checked_mul(len)?;
        std::alloc::Layout::from_size_align(size, std::mem::align_of::<T>()).ok()?;
        // SAFETY: a fresh allocation of `size` bytes, zeroed, suitably aligned for `T`.
        let raw = unsafe { allocate(size, std::mem::align_of::<T>()) };
        NonNull::new(raw.cast::<T>()).map(|ptr| TableMemory { ptr, len })
    }

    /// Sets every value back to all-zero bits (valid, as `try_zeroed` requires): one
    /// `memset`, which exclusive access allows.
    pub fn zero(&mut self) {
        // SAFETY: `ptr` holds `len` values, all-zero bits are a valid `T`, and `&mut self`
        // rules out any other access meanwhile.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) }
    }

    fn size(len: usize) -> usize {
        std::mem::size_of::<T>().saturating_mul(len).max(1)
    }
}

#[cfg(not(target_os = "linux"))]
fn layout(size: usize, align: usize) -> std::alloc::Layout {
    std::alloc::Layout::from_size_align(size, align).expect("table size fits in memory")
}

#[cfg(target_os = "linux")]
unsafe fn allocate(size: usize, _align: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping (page-aligned, zero-filled); advising it is only
    // a hint and failure is harmless.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        libc::madvise(p, size, libc::MADV_HUGEPAGE);
        p.cast()
    }
}

#[cfg(target_os = "linux")]
unsafe fn release(ptr: *mut u8, size: usize, _align: usize) {
    // SAFETY: `ptr` and `size` describe a mapping made by `allocate`.
    unsafe {
        libc::munmap(ptr.cast(), size);
    }
}

#[cfg(not(target_os = "linux"))]
unsafe fn allocate(size: usize, align: usize) -> *mut u8 {
    // SAFETY: the layout has a non-zero size (checked by the caller).
    unsafe { std::alloc::alloc_zeroed(layout(size, align)) }
}

/// Memory the system can still give, in MiB, where it says (Linux); `None` elsewhere.
pub fn available_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

#[cfg(not(target_os = "linux"))]
unsafe fn release(ptr: *mut u8, size: usize, align: usize) {
    // SAFETY: allocated by `allocate` with this same layout.
    unsafe { std::alloc::dealloc(ptr, layout(size, align)) }
}

impl<T> Deref for TableMemory<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised (zeroed) values for the buffer's lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for TableMemory<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this size; the values need no drop.
        unsafe {
            release(
                self.ptr.as_ptr().cast(),
                Self::size(self.len),
                std::mem::align_of::<T>(),
            )
        }
    }
}
