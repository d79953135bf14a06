//! The runtime's aligned allocator and the owned buffer built on it.
//!
//! Compiled code allocates buffers whose size is only known at run time
//! through `omlc_rt_alloc`, and hands some of them back as model outputs
//! that become [`Tensor`](crate::Tensor)s. `omlc_rt_free` receives nothing but
//! the pointer, so every block starts with a small header (its size,
//! alignment and a magic number) just before the address handed out. That
//! makes a model-allocated block and a tensor's own buffer the same thing
//! ([`AlignedBuf`]): adopting an output is a pointer move, and the header
//! lets the runtime check that a pointer really came from this allocator
//! and that it is large enough for the shape the model reported.
//!
//! The buffers every kernel streams through — a session's workspaces and
//! its weights — are [`AlignedBuf::bulk`]: from 1 MiB on, their own
//! 2 MiB-aligned mapping that asks for transparent huge pages (Linux gives
//! them only on request). On 4 KiB pages a kernel walking a weight matrix
//! touches a new page per row, and where each page lands physically
//! decides which rows collide in the caches: two loads of one compiled
//! model differed by 7% in speed. The C runtime of AOT libraries does the
//! same (`runtime/c/omlc_rt.c`).

use std::alloc::{self, Layout};
use std::ptr::NonNull;

use crate::error::{Result, RuntimeError};

/// Every block is at least this aligned (one cache line, one AVX-512
/// register), whatever the caller asked for.
pub const MIN_ALIGN: usize = 64;

/// Marks live blocks; cleared on free so that a double free is caught.
const MAGIC: u32 = 0x6f6d_6c63; // "omlc"
/// Marks live blocks that own a huge-page region ([`allocate_bulk`]).
const MAGIC_REGION: u32 = 0x6f6d_6c68; // "omlh"

/// Stored in the 16 bytes before every block.
#[repr(C)]
struct Header {
    size: u64,
    align: u32,
    magic: u32,
}

const HEADER: usize = std::mem::size_of::<Header>();
const _: () = assert!(HEADER <= MIN_ALIGN);

/// Allocates `bytes` bytes aligned to `align` (a power of two; 0 means
/// [`MIN_ALIGN`]), zeroed or not. `None` when the request is invalid or
/// memory is exhausted. A zero-byte request gets a unique valid pointer.
pub(crate) fn allocate(bytes: usize, align: usize, zeroed: bool) -> Option<NonNull<u8>> {
    if (align != 0 && !align.is_power_of_two()) || align > u32::MAX as usize {
        return None;
    }
    let align = align.max(MIN_ALIGN);
    // The header lives in the `align` bytes before the block.
    let total = bytes.checked_add(align)?;
    let layout = Layout::from_size_align(total, align).ok()?;
    // SAFETY: `layout` has a non-zero size (`total >= align >= 64`).
    let base = unsafe {
        if zeroed {
            alloc::alloc_zeroed(layout)
        } else {
            alloc::alloc(layout)
        }
    };
    let base = NonNull::new(base)?;
    // SAFETY: `base + align` is inside the `total`-byte allocation, and the
    // header's 16 bytes before it are inside the first `align` bytes;
    // `align >= 16` keeps the header 8-byte aligned.
    Some(unsafe { stamp(base.add(align), bytes, align, MAGIC) })
}

/// Writes the header of the block at `block` and returns it.
///
/// # Safety
/// The 16 bytes before `block` must be writable and 8-byte aligned.
unsafe fn stamp(block: NonNull<u8>, bytes: usize, align: usize, magic: u32) -> NonNull<u8> {
    // SAFETY: as the caller guarantees.
    unsafe {
        block.as_ptr().sub(HEADER).cast::<Header>().write(Header {
            size: bytes as u64,
            align: align as u32,
            magic,
        });
    }
    block
}

/// Allocates `bytes` zeroed bytes, [`MIN_ALIGN`]-aligned, for a buffer that
/// kernels stream through: from [`region::MIN`] bytes on, in a huge-page
/// region of its own; below, or where regions do not exist, like
/// [`allocate`].
pub(crate) fn allocate_bulk(bytes: usize) -> Option<NonNull<u8>> {
    let total = bytes.checked_add(MIN_ALIGN)?;
    if total < region::MIN {
        return allocate(bytes, MIN_ALIGN, true);
    }
    match region::map(total) {
        // SAFETY: the region holds `total` bytes, so the header's 16 bytes
        // before `base + MIN_ALIGN` are in it, and `base` is page-aligned.
        Some(base) => Some(unsafe { stamp(base.add(MIN_ALIGN), bytes, MIN_ALIGN, MAGIC_REGION) }),
        None if region::AVAILABLE => None,
        None => allocate(bytes, MIN_ALIGN, true),
    }
}

/// Reads a live block's header; aborts when `ptr` is not one.
///
/// # Safety
/// `ptr` must have come from [`allocate`] and not have been freed, or at
/// least point 16 readable bytes past the start of some mapping (the magic
/// check then catches most misuse).
unsafe fn header<'a>(ptr: NonNull<u8>, caller: &str) -> &'a mut Header {
    // SAFETY: the caller guarantees the 16 bytes before `ptr` are readable;
    // blocks from `allocate` have their header there.
    let header = unsafe { &mut *ptr.as_ptr().sub(HEADER).cast::<Header>() };
    if header.magic != MAGIC && header.magic != MAGIC_REGION {
        eprintln!("onnx-mlc runtime: {caller}: {ptr:p} was not allocated by omlc_rt_alloc");
        std::process::abort();
    }
    header
}

/// The usable size of a live block.
///
/// # Safety
/// As for [`header`].
pub(crate) unsafe fn block_size(ptr: NonNull<u8>) -> usize {
    // SAFETY: forwarded to the caller.
    unsafe { header(ptr, "block_size").size as usize }
}

/// Frees a block from [`allocate`].
///
/// # Safety
/// `ptr` must have come from [`allocate`] and not have been freed.
pub(crate) unsafe fn release(ptr: NonNull<u8>) {
    // SAFETY: forwarded to the caller.
    let header = unsafe { header(ptr, "omlc_rt_free") };
    let (size, align) = (header.size as usize, header.align as usize);
    let in_region = header.magic == MAGIC_REGION;
    header.magic = 0;
    // SAFETY: `allocate` made this block with exactly this layout, `align`
    // bytes after `base`; `allocate_bulk` mapped a region of `size + align`
    // bytes at `base`.
    unsafe {
        let base = ptr.as_ptr().sub(align);
        if in_region {
            region::unmap(base, size + align);
        } else {
            let layout = Layout::from_size_align_unchecked(size + align, align);
            alloc::dealloc(base, layout);
        }
    }
}

/// Huge-page regions: anonymous mappings aligned to 2 MiB with
/// `MADV_HUGEPAGE` (a hint: without transparent huge pages a region is
/// ordinary memory).
#[cfg(unix)]
mod region {
    use std::ptr::NonNull;

    /// Where regions exist.
    pub(super) const AVAILABLE: bool = true;
    /// Blocks from this size on get a region (a huge page for a small
    /// buffer would waste most of it).
    pub(super) const MIN: usize = 1 << 20;
    const HUGE_PAGE: usize = 2 << 20;

    /// `bytes` rounded up to whole huge pages.
    fn len(bytes: usize) -> Option<usize> {
        Some(bytes.checked_add(HUGE_PAGE - 1)? & !(HUGE_PAGE - 1))
    }

    /// A zeroed region of at least `bytes` bytes, 2 MiB-aligned.
    pub(super) fn map(bytes: usize) -> Option<NonNull<u8>> {
        let len = len(bytes)?;
        // One huge page more than needed, trimmed to an aligned start.
        let span = len.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping at an address of the
        // kernel's choosing touches no existing memory.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let raw = raw.cast::<u8>();
        let lead = (HUGE_PAGE - raw as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `lead < HUGE_PAGE`, so `start..start + len` and the
        // trimmed ends are inside the `span`-byte mapping; unmapping the
        // parts outside `start..start + len` leaves exactly the region.
        unsafe {
            let start = raw.add(lead);
            if lead > 0 {
                libc::munmap(raw.cast(), lead);
            }
            let tail = span - lead - len;
            if tail > 0 {
                libc::munmap(start.add(len).cast(), tail);
            }
            #[cfg(any(target_os = "linux", target_os = "android"))]
            libc::madvise(start.cast(), len, libc::MADV_HUGEPAGE);
            NonNull::new(start)
        }
    }

    /// Unmaps a region from [`map`]`(bytes)`.
    ///
    /// # Safety
    /// `base` must be such a region, not used afterwards.
    pub(super) unsafe fn unmap(base: *mut u8, bytes: usize) {
        // SAFETY: the caller guarantees `base` maps `len(bytes)` bytes.
        unsafe {
            libc::munmap(base.cast(), len(bytes).unwrap_or(bytes));
        }
    }
}

/// Without mmap, bulk buffers come from the allocator.
#[cfg(not(unix))]
mod region {
    use std::ptr::NonNull;

    pub(super) const AVAILABLE: bool = false;
    pub(super) const MIN: usize = usize::MAX;

    pub(super) fn map(_: usize) -> Option<NonNull<u8>> {
        None
    }

    pub(super) unsafe fn unmap(_: *mut u8, _: usize) {
        unreachable!("no regions without mmap")
    }
}

/// An owned, [`MIN_ALIGN`]-aligned byte buffer from the runtime allocator.
///
/// `len` is the part in use; the block behind it may be larger (an output
/// the model allocated with some slack).
pub(crate) struct AlignedBuf {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: an `AlignedBuf` uniquely owns plain bytes; shared references only
// read them.
unsafe impl Send for AlignedBuf {}
// SAFETY: as above.
unsafe impl Sync for AlignedBuf {}

impl AlignedBuf {
    /// A zero-filled buffer of `len` bytes.
    pub(crate) fn zeroed(len: usize) -> Result<AlignedBuf> {
        let ptr = allocate(len, MIN_ALIGN, true).ok_or(RuntimeError::Alloc(len))?;
        Ok(AlignedBuf { ptr, len })
    }

    /// A zero-filled buffer of `len` bytes for kernels to stream through
    /// (a workspace, weights): on huge pages from 1 MiB on.
    pub(crate) fn bulk(len: usize) -> Result<AlignedBuf> {
        let ptr = allocate_bulk(len).ok_or(RuntimeError::Alloc(len))?;
        Ok(AlignedBuf { ptr, len })
    }

    /// A buffer holding a copy of `bytes`.
    pub(crate) fn copy_of(bytes: &[u8]) -> Result<AlignedBuf> {
        let mut buf = AlignedBuf::zeroed(bytes.len())?;
        buf.as_bytes_mut().copy_from_slice(bytes);
        Ok(buf)
    }

    /// Takes ownership of a block from `omlc_rt_alloc` (a model output) and
    /// frees it when dropped; its length is the block's size until
    /// [`AlignedBuf::truncate`].
    ///
    /// # Safety
    /// `ptr` must be a live block from [`allocate`] that nothing else owns.
    pub(crate) unsafe fn adopt(ptr: NonNull<u8>) -> AlignedBuf {
        // SAFETY: forwarded to the caller.
        let len = unsafe { block_size(ptr) };
        AlignedBuf { ptr, len }
    }

    /// Shortens the part in use to `len` bytes; `false` (and no change)
    /// when the block is smaller than that.
    pub(crate) fn truncate(&mut self, len: usize) -> bool {
        // SAFETY: `self.ptr` is a live block this buffer owns.
        let capacity = unsafe { block_size(self.ptr) };
        if len > capacity {
            return false;
        }
        self.len = len;
        true
    }

    /// The bytes in use.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        // SAFETY: the block holds at least `len` initialized bytes (zeroed
        // at allocation, or written by the model that produced it).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The bytes in use, writable.
    pub(crate) fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_bytes`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// The start of the buffer, for compiled code.
    pub(crate) fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Clone for AlignedBuf {
    fn clone(&self) -> AlignedBuf {
        AlignedBuf::copy_of(self.as_bytes()).expect("out of memory cloning a tensor")
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: the buffer owns a live block from `allocate`.
        unsafe { release(self.ptr) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_and_sized() {
        for (bytes, align) in [(0, 0), (1, 1), (100, 64), (5000, 4096), (3, 128)] {
            let p = allocate(bytes, align, false).unwrap();
            assert_eq!(p.as_ptr() as usize % align.max(MIN_ALIGN), 0);
            // SAFETY: `p` is a live block.
            unsafe {
                assert_eq!(block_size(p), bytes);
                release(p);
            }
        }
    }

    #[test]
    fn bulk_buffers_are_zeroed_aligned_and_freed() {
        for len in [0, 100, (1 << 20) - 64, 1 << 20, (3 << 20) + 5] {
            let mut b = AlignedBuf::bulk(len).unwrap();
            assert_eq!(b.as_ptr() as usize % MIN_ALIGN, 0);
            assert!(b.as_bytes().iter().all(|&x| x == 0));
            if let Some(last) = b.as_bytes_mut().last_mut() {
                *last = 1;
            }
            // SAFETY: `b` owns a live block.
            assert_eq!(
                unsafe { block_size(NonNull::new(b.as_ptr()).unwrap()) },
                len
            );
        }
    }

    #[test]
    fn bad_requests_fail() {
        assert!(allocate(8, 96, false).is_none());
        assert!(allocate(usize::MAX, 64, false).is_none());
        assert!(AlignedBuf::zeroed(usize::MAX - 8).is_err());
    }

    #[test]
    fn zeroed_buffers_are_zero_and_truncate_checks_capacity() {
        let mut b = AlignedBuf::zeroed(300).unwrap();
        assert!(b.as_bytes().iter().all(|&x| x == 0));
        b.as_bytes_mut()[299] = 7;
        let c = b.clone();
        assert_eq!(c.as_bytes()[299], 7);
        assert!(b.truncate(10));
        assert_eq!(b.as_bytes().len(), 10);
        assert!(b.truncate(300));
        assert!(!b.truncate(301));
    }
}
