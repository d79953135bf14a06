//! The runtime context compiled code calls back into: `omlc_rt_parallel_for`,
//! `omlc_rt_alloc` and `omlc_rt_free`, and MLIR's strided copy `memrefCopy`.
//!
//! JIT-compiled code reaches these functions through addresses the JIT maps
//! the symbols to ([`runtime_symbols`]); they are deliberately not exported
//! by name (`#[no_mangle]`), so they can never clash with the C runtime an
//! AOT library loaded into the same process carries.
//!
//! The pool's workers wait for loops spinning, then sleeping: the loops of
//! a run come back to back (a MobileNet is a hundred kernels of tens of
//! microseconds each), and a sleeping thread takes about as long to wake
//! as such a kernel takes to run, so workers that slept between kernels
//! never helped (two threads ran int8 MobileNetV2 slower than one). A
//! worker spins for [`SPIN`] after its last loop, then sleeps until the
//! next. A loop's chunks are claimed from a shared counter by the workers
//! and by the calling thread, which waits only for chunks others are
//! running (see [`RtContext::parallel_for`]). A `parallel_for` from inside
//! a task (nested parallelism) or from several threads at once (concurrent
//! runs) cannot deadlock: a waiting thread waits only for chunks that are
//! running. A context with one thread has no pool and runs every loop
//! inline.

use std::ffi::c_void;
use std::panic::{self, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::abi::{OmlcRt, TaskFn};
use crate::alloc;
use crate::error::{Result, RuntimeError};

/// How many chunks each thread gets: enough for load balance when chunks
/// take different times, few enough to keep the scheduling cheap.
const CHUNKS_PER_THREAD: i64 = 4;

/// How long an idle worker spins for the next loop before it sleeps.
const SPIN: Duration = Duration::from_micros(500);

/// The runtime context behind `omlc_rt *`: the thread pool (the allocator
/// is the process-wide [`alloc`] one).
pub struct RtContext {
    pool: Option<Pool>,
    threads: usize,
}

impl RtContext {
    /// A context with `threads` threads (0: one per available CPU).
    pub fn new(threads: usize) -> Result<RtContext> {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        // The calling thread runs chunks too: `threads - 1` workers.
        let pool = if threads == 1 {
            None
        } else {
            Some(Pool::new(threads - 1)?)
        };
        Ok(RtContext { pool, threads })
    }

    /// The number of threads loops run on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Calls `f(begin, end)` on disjoint ranges covering `[0, n)`, on the
    /// calling thread and the pool, and returns when all calls are done.
    ///
    /// The ranges (`CHUNKS_PER_THREAD` per thread) are claimed one by one
    /// from a shared counter by the calling thread and by the workers, and
    /// the caller waits only for ranges another thread has claimed and not
    /// finished. So the caller works instead of sleeping while the pool
    /// runs the loop, and a worker that is slow to start (a sleeping thread
    /// to wake, or one descheduled on a busy machine) never holds a loop
    /// up: it finds the ranges taken and does nothing. `f` is `'static`
    /// because a worker may pick the loop up after it is over.
    pub fn parallel_for(&self, n: i64, f: impl Fn(i64, i64) + Send + Sync + 'static) {
        if n <= 0 {
            return;
        }
        let Some(pool) = &self.pool else {
            return f(0, n);
        };
        let chunks = n.min(CHUNKS_PER_THREAD * self.threads as i64);
        if chunks == 1 {
            return f(0, n);
        }
        let lp = Arc::new(Loop {
            f,
            n,
            chunks,
            next: AtomicI64::new(0),
            finished_chunks: AtomicI64::new(0),
            done: Mutex::new(0),
            finished: Condvar::new(),
        });
        pool.publish(Arc::clone(&lp) as Arc<dyn Job>);
        lp.work();
        // The last chunks usually end within microseconds: spin first.
        spin_until(pool.shared.spin, || {
            lp.finished_chunks.load(Ordering::Acquire) >= chunks
        });
        let mut done = lp.done.lock().unwrap_or_else(PoisonError::into_inner);
        while *done < chunks {
            done = lp
                .finished
                .wait(done)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The pointer compiled code receives as `omlc_rt *`.
    pub fn as_raw(&self) -> *mut OmlcRt {
        self as *const RtContext as *mut OmlcRt
    }
}

/// The worker threads and the loop they are to help with.
struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

/// What the workers of a [`Pool`] watch.
struct Shared {
    /// The latest loop, with its number (loops are numbered from 1).
    current: Mutex<(u64, Option<Arc<dyn Job>>)>,
    /// The latest loop's number, read by spinning workers without the lock.
    latest: AtomicU64,
    /// Workers asleep on `wake`.
    sleeping: AtomicUsize,
    wake: Condvar,
    stop: AtomicBool,
    /// How long to spin before sleeping: [`SPIN`], or nothing when the
    /// pool has more threads than the machine has CPUs (spinning threads
    /// would take the CPUs from the ones working).
    spin: Duration,
}

/// Spins (a pause per check, the clock read every 1024 checks) until
/// `done` or `limit` has passed.
fn spin_until(limit: Duration, mut done: impl FnMut() -> bool) {
    if limit.is_zero() {
        return;
    }
    let start = Instant::now();
    let mut spins = 0u32;
    while !done() {
        spins = spins.wrapping_add(1);
        if spins % 1024 == 0 && start.elapsed() > limit {
            return;
        }
        std::hint::spin_loop();
    }
}

/// A loop the workers run chunks of.
trait Job: Send + Sync {
    /// Claims and runs chunks until none are left.
    fn work(&self);
}

impl Pool {
    fn new(workers: usize) -> Result<Pool> {
        let shared = Arc::new(Shared {
            current: Mutex::new((0, None)),
            latest: AtomicU64::new(0),
            sleeping: AtomicUsize::new(0),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
            spin: if workers < std::thread::available_parallelism().map_or(1, |n| n.get()) {
                SPIN
            } else {
                Duration::ZERO
            },
        });
        let workers = (0..workers)
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("omlc-rt-{i}"))
                    .spawn(move || shared.serve())
                    .map_err(|e| RuntimeError::ThreadPool(e.to_string()))
            })
            .collect::<Result<_>>()?;
        Ok(Pool { shared, workers })
    }

    /// Makes `job` the loop the workers help with, waking sleeping ones.
    fn publish(&self, job: Arc<dyn Job>) {
        let mut current = self.shared.lock();
        current.0 += 1;
        current.1 = Some(job);
        self.shared.latest.store(current.0, Ordering::Release);
        if self.shared.sleeping.load(Ordering::Relaxed) > 0 {
            self.shared.wake.notify_all();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        {
            let _current = self.shared.lock();
            self.shared.wake.notify_all();
        }
        for worker in self.workers.drain(..) {
            // A worker only returns; one that panicked has nothing to report.
            let _ = worker.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, (u64, Option<Arc<dyn Job>>)> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A worker's life: wait for a loop newer than the last one it saw
    /// (spinning, then asleep), help with it, until the pool stops.
    fn serve(&self) {
        let mut seen = 0;
        while let Some(job) = self.next_loop(&mut seen) {
            job.work();
        }
    }

    /// The next loop after loop `seen` (which it updates), or `None` when
    /// the pool stops.
    fn next_loop(&self, seen: &mut u64) -> Option<Arc<dyn Job>> {
        spin_until(self.spin, || {
            self.latest.load(Ordering::Acquire) != *seen || self.stop.load(Ordering::Acquire)
        });
        let mut current = self.lock();
        while current.0 == *seen && !self.stop.load(Ordering::Acquire) {
            self.sleeping.fetch_add(1, Ordering::Relaxed);
            current = self
                .wake
                .wait(current)
                .unwrap_or_else(PoisonError::into_inner);
            self.sleeping.fetch_sub(1, Ordering::Relaxed);
        }
        if self.stop.load(Ordering::Acquire) {
            return None;
        }
        *seen = current.0;
        current.1.clone()
    }
}

/// Chunk `i` of `[0, n)` split into `chunks` parts whose sizes differ by at
/// most one (the first `n % chunks` get the extra element).
fn chunk(n: i64, chunks: i64, i: i64) -> (i64, i64) {
    let (base, extra) = (n / chunks, n % chunks);
    let begin = i * base + i.min(extra);
    (begin, begin + base + i64::from(i < extra))
}

/// One `parallel_for` loop, shared by the threads that run its chunks.
struct Loop<F> {
    f: F,
    n: i64,
    chunks: i64,
    /// The next chunk to claim.
    next: AtomicI64,
    /// How many chunks are finished, for a caller that spins.
    finished_chunks: AtomicI64,
    /// The same under a lock, for one that sleeps: `finished` is notified
    /// at the last.
    done: Mutex<i64>,
    finished: Condvar,
}

impl<F: Fn(i64, i64) + Send + Sync> Job for Loop<F> {
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.chunks {
                return;
            }
            let (begin, end) = chunk(self.n, self.chunks, i);
            (self.f)(begin, end);
            self.finished_chunks.fetch_add(1, Ordering::AcqRel);
            let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
            *done += 1;
            if *done == self.chunks {
                self.finished.notify_all();
            }
        }
    }
}

/// Runs `f`, aborting the process if it panics: a panic must not unwind
/// into compiled code, and these functions have no way to report one.
fn no_unwind<R>(name: &str, f: impl FnOnce() -> R) -> R {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(no message)");
        eprintln!("onnx-mlc runtime: panic in {name}: {message}");
        std::process::abort()
    })
}

/// The `ctx` pointer, shared by the tasks of one loop.
#[derive(Clone, Copy)]
struct SharedCtx(*mut c_void);

impl SharedCtx {
    /// The pointer (a method, so that closures capture the whole `Sync`
    /// wrapper rather than its raw field).
    fn get(self) -> *mut c_void {
        self.0
    }
}

// SAFETY: the ABI makes the task responsible for `ctx`: it is called
// concurrently on disjoint ranges and must only touch what its range owns.
unsafe impl Send for SharedCtx {}
// SAFETY: as above.
unsafe impl Sync for SharedCtx {}

/// `omlc_rt_parallel_for`: calls `task(ctx, begin, end)` over disjoint
/// ranges covering `[0, n)` on the context's threads and returns when all
/// are done. Nothing happens when `n <= 0`; a NULL `rt` runs inline; a NULL
/// `task` aborts the process (a code generator bug).
///
/// # Safety
/// `rt` must be NULL or come from [`RtContext::as_raw`] of a live context;
/// `task` must be safe to call concurrently with `ctx` on disjoint ranges.
pub unsafe extern "C" fn omlc_rt_parallel_for(
    rt: *mut OmlcRt,
    task: Option<TaskFn>,
    ctx: *mut c_void,
    n: i64,
) {
    no_unwind("omlc_rt_parallel_for", || {
        let task = task.expect("NULL task");
        let ctx = SharedCtx(ctx);
        // SAFETY: the caller passes the task and context the ABI describes.
        let run = move |begin, end| unsafe { task(ctx.get(), begin, end) };
        // SAFETY: NULL or a live `RtContext` (caller).
        // A chunk's task runs only while this call waits for it (a job
        // that starts after the loop is over finds no chunk left), so
        // `ctx` is live whenever it is used.
        match unsafe { rt.cast::<RtContext>().as_ref() } {
            Some(rt) => rt.parallel_for(n, run),
            None if n > 0 => run(0, n),
            None => {}
        }
    })
}

/// `omlc_rt_alloc`: `bytes` bytes aligned to `align` (a power of two, 0 for
/// the default; never less than 64), uninitialized; NULL when memory is
/// exhausted or `align` is not a power of two. Zero bytes give a unique
/// pointer that must still be freed.
pub extern "C" fn omlc_rt_alloc(_rt: *mut OmlcRt, bytes: u64, align: u64) -> *mut c_void {
    no_unwind("omlc_rt_alloc", || {
        let (Ok(bytes), Ok(align)) = (usize::try_from(bytes), usize::try_from(align)) else {
            return std::ptr::null_mut();
        };
        alloc::allocate(bytes, align, false).map_or(std::ptr::null_mut(), |p| p.as_ptr().cast())
    })
}

/// `omlc_rt_free`: frees a block from [`omlc_rt_alloc`]; NULL is ignored.
///
/// # Safety
/// `ptr` must be NULL or a live block from [`omlc_rt_alloc`].
pub unsafe extern "C" fn omlc_rt_free(_rt: *mut OmlcRt, ptr: *mut c_void) {
    no_unwind("omlc_rt_free", || {
        if let Some(ptr) = NonNull::new(ptr.cast::<u8>()) {
            // SAFETY: a live block from `omlc_rt_alloc` (caller).
            unsafe { alloc::release(ptr) }
        }
    })
}

/// MLIR's unranked memref: the rank and a pointer to the ranked descriptor
/// `{allocated, aligned, offset, sizes[rank], strides[rank]}` (offset and
/// strides in elements, every field 8 bytes on 64-bit targets).
#[repr(C)]
pub struct UnrankedMemref {
    rank: i64,
    descriptor: *const i64,
}

/// `memrefCopy`, which `finalize-memref-to-llvm` calls for a `memref.copy`
/// between layouts that are not both contiguous: copies every element of
/// `src` to the same index of `dst` (same rank and sizes).
///
/// # Safety
/// `src` and `dst` must be valid unranked memrefs of equal rank and sizes
/// whose elements are `elem_size` bytes and lie in live buffers.
pub unsafe extern "C" fn memref_copy(
    elem_size: i64,
    src: *const UnrankedMemref,
    dst: *const UnrankedMemref,
) {
    no_unwind("memrefCopy", || {
        // SAFETY: valid unranked memrefs (caller).
        let (src, dst) = unsafe { (&*src, &*dst) };
        let rank = usize::try_from(src.rank).expect("a memref rank");
        let field = |m: &UnrankedMemref, i: usize| -> i64 {
            // SAFETY: the descriptor has 3 + 2·rank fields (caller).
            unsafe { *m.descriptor.add(i) }
        };
        let size = |k: usize| field(src, 3 + k);
        if (0..rank).any(|k| size(k) == 0) {
            return;
        }
        let width = usize::try_from(elem_size).expect("an element size");
        let mut index = vec![0i64; rank];
        loop {
            let offset = |m: &UnrankedMemref| {
                field(m, 2)
                    + (0..rank)
                        .map(|k| index[k] * field(m, 3 + rank + k))
                        .sum::<i64>()
            };
            let (from, to) = (offset(src), offset(dst));
            let base = |m: &UnrankedMemref| field(m, 1) as *mut u8;
            // SAFETY: both elements lie in their live buffers (caller); a
            // copy never overlaps itself element-wise.
            unsafe {
                std::ptr::copy(
                    base(src).offset(from as isize * elem_size as isize),
                    base(dst).offset(to as isize * elem_size as isize),
                    width,
                )
            };
            let mut k = rank;
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < size(k) {
                    break;
                }
                index[k] = 0;
            }
        }
    })
}

/// The runtime's external symbols and their addresses, for the JIT to map
/// the compiled code's references to.
pub fn runtime_symbols() -> [(&'static str, usize); 4] {
    [
        (
            "omlc_rt_parallel_for",
            omlc_rt_parallel_for as *const () as usize,
        ),
        ("omlc_rt_alloc", omlc_rt_alloc as *const () as usize),
        ("omlc_rt_free", omlc_rt_free as *const () as usize),
        ("memrefCopy", memref_copy as *const () as usize),
    ]
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;

    #[test]
    fn memref_copy_follows_both_layouts() {
        // A 2x3 f32 source read row-major from offset 1 of its buffer,
        // copied into the transpose of a 3x2 buffer (strides 1, 2).
        let src_buf: Vec<f32> = (0..7).map(|v| v as f32).collect();
        let mut dst_buf = vec![0f32; 6];
        let src_desc = [0, src_buf.as_ptr() as i64, 1, 2, 3, 3, 1];
        let dst_desc = [0, dst_buf.as_mut_ptr() as i64, 0, 2, 3, 1, 2];
        let src = UnrankedMemref {
            rank: 2,
            descriptor: src_desc.as_ptr(),
        };
        let dst = UnrankedMemref {
            rank: 2,
            descriptor: dst_desc.as_ptr(),
        };
        // SAFETY: both descriptors describe their live buffers.
        unsafe { memref_copy(4, &src, &dst) };
        assert_eq!(dst_buf, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    }

    #[test]
    fn chunks_are_balanced_and_cover_the_range() {
        for (n, chunks) in [(10, 4), (4, 4), (7, 1), (i64::MAX, 8), (100, 7)] {
            let mut next = 0;
            for i in 0..chunks {
                let (b, e) = chunk(n, chunks, i);
                assert_eq!(b, next);
                assert!(e - b == n / chunks || e - b == n / chunks + 1);
                next = e;
            }
            assert_eq!(next, n);
        }
    }

    /// Runs `parallel_for(n)` and checks every index was visited once.
    fn check_coverage(rt: &RtContext, n: i64) {
        let hits: Arc<Vec<AtomicU32>> = Arc::new((0..n).map(|_| AtomicU32::new(0)).collect());
        let calls = Arc::new(AtomicUsize::new(0));
        let (h, c) = (Arc::clone(&hits), Arc::clone(&calls));
        rt.parallel_for(n, move |b, e| {
            assert!(0 <= b && b < e && e <= n, "bad range [{b}, {e}) of {n}");
            c.fetch_add(1, Ordering::Relaxed);
            for i in b..e {
                h[i as usize].fetch_add(1, Ordering::Relaxed);
            }
        });
        assert!(
            hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
            "n = {n}"
        );
        let max_calls = if rt.threads() == 1 {
            1
        } else {
            4 * rt.threads()
        };
        assert!(calls.load(Ordering::Relaxed) <= max_calls.min(n.max(0) as usize));
    }

    #[test]
    fn parallel_for_covers_every_index_once() {
        for threads in [1, 2, 3, 8] {
            let rt = RtContext::new(threads).unwrap();
            assert_eq!(rt.threads(), threads);
            for n in [0, -5, 1, 2, 7, 31, 1000, 10_007] {
                check_coverage(&rt, n);
            }
        }
        assert!(RtContext::new(0).unwrap().threads() >= 1);
    }

    #[test]
    fn loops_after_the_workers_sleep_complete() {
        let rt = RtContext::new(3).unwrap();
        for _ in 0..3 {
            check_coverage(&rt, 1000);
            // Past the spin: the workers are asleep for the next loop.
            std::thread::sleep(SPIN * 4);
        }
    }

    #[test]
    fn one_thread_runs_inline_in_one_call() {
        let rt = RtContext::new(1).unwrap();
        let me = std::thread::current().id();
        let calls = Arc::new(std::sync::Mutex::new(Vec::new()));
        let c = Arc::clone(&calls);
        rt.parallel_for(50, move |b, e| {
            assert_eq!(std::thread::current().id(), me);
            c.lock().unwrap().push((b, e));
        });
        assert_eq!(*calls.lock().unwrap(), [(0, 50)]);
    }

    #[test]
    fn nested_and_concurrent_loops_complete() {
        let rt = Arc::new(RtContext::new(3).unwrap());
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let rt = Arc::clone(&rt);
                std::thread::spawn(move || {
                    let (rows, cols) = (37 + t, 53);
                    let hits: Arc<Vec<AtomicU32>> =
                        Arc::new((0..rows * cols).map(|_| AtomicU32::new(0)).collect());
                    let (outer, h) = (Arc::clone(&rt), Arc::clone(&hits));
                    rt.parallel_for(rows as i64, move |rb, re| {
                        for r in rb..re {
                            let h = Arc::clone(&h);
                            outer.parallel_for(cols as i64, move |cb, ce| {
                                for c in cb..ce {
                                    h[r as usize * cols + c as usize]
                                        .fetch_add(1, Ordering::Relaxed);
                                }
                            });
                        }
                    });
                    assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    /// A task in the shape compiled code has: `ctx` is a table of counters.
    unsafe extern "C" fn count_task(ctx: *mut c_void, begin: i64, end: i64) {
        // SAFETY: the tests pass a live slice of counters as `ctx`.
        let hits = unsafe { &*ctx.cast::<Vec<AtomicU32>>() };
        for i in begin..end {
            hits[i as usize].fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn the_c_entry_points_work_with_and_without_a_context() {
        let rt = RtContext::new(2).unwrap();
        for raw in [rt.as_raw(), std::ptr::null_mut()] {
            let hits: Vec<AtomicU32> = (0..100).map(|_| AtomicU32::new(0)).collect();
            let ctx = &hits as *const Vec<AtomicU32> as *mut c_void;
            // SAFETY: `raw` is NULL or a live context; `count_task` fits `ctx`.
            unsafe {
                omlc_rt_parallel_for(raw, Some(count_task), ctx, 100);
                omlc_rt_parallel_for(raw, Some(count_task), ctx, 0);
            }
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn alloc_and_free_through_the_abi() {
        let rt = RtContext::new(1).unwrap();
        let p = omlc_rt_alloc(rt.as_raw(), 1000, 256);
        assert!(!p.is_null() && p as usize % 256 == 0);
        let q = omlc_rt_alloc(rt.as_raw(), 0, 0);
        assert!(!q.is_null() && q as usize % 64 == 0 && p != q);
        assert!(omlc_rt_alloc(rt.as_raw(), 8, 48).is_null());
        assert!(omlc_rt_alloc(rt.as_raw(), u64::MAX, 64).is_null());
        // SAFETY: live blocks from `omlc_rt_alloc`, and NULL.
        unsafe {
            omlc_rt_free(rt.as_raw(), p);
            omlc_rt_free(rt.as_raw(), q);
            omlc_rt_free(rt.as_raw(), std::ptr::null_mut());
        }
        let names: Vec<_> = runtime_symbols().iter().map(|s| s.0).collect();
        assert_eq!(
            names,
            [
                "omlc_rt_parallel_for",
                "omlc_rt_alloc",
                "omlc_rt_free",
                "memrefCopy"
            ]
        );
        assert!(runtime_symbols().iter().all(|s| s.1 != 0));
    }
}
