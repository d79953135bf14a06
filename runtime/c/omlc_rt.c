/*
 * The C runtime of onnx-mlc AOT libraries (docs/runtime.md).
 *
 * Linked into every AOT shared library next to the compiled model, so the
 * library needs nothing but libc, libm and libpthread at run time (dladdr,
 * used to find a side weights file, is in libc since glibc 2.34; older
 * glibc needs -ldl). It implements:
 *   - the runtime functions compiled code calls: a persistent pthread pool
 *     behind omlc_rt_parallel_for, and an aligned allocator;
 *   - the public session API on top of the library's models (__omlc_program:
 *     one model and its size variants, or the segments of a host program):
 *     weights (embedded or memory-mapped from the side file; large ones
 *     copied into huge pages), input
 *     validation with readable messages, workspaces and output allocation.
 *
 * Thread safety: concurrent omlc_session_run calls on one session are safe.
 * Each run takes a workspace from the session's free list (allocating one
 * when all are in use) and returns it afterwards; weights are read-only.
 * The pool runs one loop at a time: a parallel_for that finds it busy (a
 * concurrent run's loop) or that is called from inside a loop (nested
 * parallelism) runs inline on the calling thread, so nothing can deadlock.
 */
#define _GNU_SOURCE /* dladdr */

#include "omlc_rt.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- Element types ------------------------------------------------------ */

/* Text-form names (as the onnx dialect prints them) and bit widths, by
 * ONNX TensorProto.DataType code; string (8) has no fixed width. */
static const struct {
    const char *name;
    int bits;
} dtypes[] = {
    {NULL, 0},          {"f32", 32},        {"ui8", 8},         {"i8", 8},
    {"ui16", 16},       {"i16", 16},        {"i32", 32},        {"i64", 64},
    {"string", 0},      {"i1", 8},          {"f16", 16},        {"f64", 64},
    {"ui32", 32},       {"ui64", 64},       {"complex<f32>", 64}, {"complex<f64>", 128},
    {"bf16", 16},       {"f8E4M3FN", 8},    {"f8E4M3FNUZ", 8},  {"f8E5M2", 8},
    {"f8E5M2FNUZ", 8},  {"ui4", 4},         {"i4", 4},          {"f4E2M1FN", 4},
    {"f8E8M0FNU", 8},   {"ui2", 2},         {"i2", 2},          {"f6E2M3FN", 6},
    {"f6E3M2FN", 6},
};

#define NUM_DTYPES ((int32_t)(sizeof dtypes / sizeof dtypes[0]))

/* Bit width of a fixed-width type; 0 for strings and unknown codes. */
static int dtype_bits(int32_t code) {
    return code > 0 && code < NUM_DTYPES ? dtypes[code].bits : 0;
}

/* The alignment an element needs: its size, its component's for complex
 * numbers, 1 for sub-byte types. */
static uintptr_t dtype_align(int32_t code) {
    int bits = dtype_bits(code);
    if (code == 14 || code == 15) /* complex64, complex128 */
        bits /= 2;
    return bits >= 8 ? (uintptr_t)bits / 8 : 1;
}

/* The name of a dtype code, or "dtype <code>" in `buf`. */
static const char *dtype_str(int32_t code, char buf[24]) {
    if (code > 0 && code < NUM_DTYPES)
        return dtypes[code].name;
    snprintf(buf, 24, "dtype %d", (int)code);
    return buf;
}

/* ---- Errors --------------------------------------------------------------- */

static _Thread_local char last_error[512];

static void clear_error(void) { last_error[0] = '\0'; }

__attribute__((format(printf, 1, 2))) static void set_error(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
}

static const char *code_name(int32_t code) {
    switch (code) {
    case OMLC_OK: return "OMLC_OK";
    case OMLC_ERR_INVALID_ARGUMENT: return "OMLC_ERR_INVALID_ARGUMENT";
    case OMLC_ERR_ALLOC: return "OMLC_ERR_ALLOC";
    case OMLC_ERR_SHAPE: return "OMLC_ERR_SHAPE";
    case OMLC_ERR_INDEX: return "OMLC_ERR_INDEX";
    case OMLC_ERR_UNSUPPORTED: return "OMLC_ERR_UNSUPPORTED";
    case OMLC_ERR_INTERNAL: return "OMLC_ERR_INTERNAL";
    case OMLC_ERR_IO: return "OMLC_ERR_IO";
    default: return "unknown error code";
    }
}

static const char *code_meaning(int32_t code) {
    switch (code) {
    case OMLC_OK: return "success";
    case OMLC_ERR_INVALID_ARGUMENT: return "the inputs or outputs do not match the model";
    case OMLC_ERR_ALLOC: return "out of memory";
    case OMLC_ERR_SHAPE: return "a run-time shape check failed";
    case OMLC_ERR_INDEX: return "an index is out of range";
    case OMLC_ERR_UNSUPPORTED: return "the input values need something the compiled code lacks";
    case OMLC_ERR_INTERNAL: return "internal error";
    case OMLC_ERR_IO: return "the weights file cannot be read";
    default: return "the model returned a code the ABI does not define";
    }
}

/* ---- Allocator ------------------------------------------------------------ */

#define MIN_ALIGN 64

void *omlc_rt_alloc(omlc_rt *rt, uint64_t bytes, uint64_t align) {
    (void)rt;
    if (align == 0)
        align = MIN_ALIGN;
    if ((align & (align - 1)) != 0 || bytes > SIZE_MAX - MIN_ALIGN)
        return NULL;
    if (align < MIN_ALIGN)
        align = MIN_ALIGN;
    void *p = NULL;
    /* Size 0 still gets a unique block. */
    if (posix_memalign(&p, (size_t)align, bytes ? (size_t)bytes : 1) != 0)
        return NULL;
    return p;
}

void omlc_rt_free(omlc_rt *rt, void *ptr) {
    (void)rt;
    free(ptr);
}

void omlc_free(void *data) { free(data); }

/* ---- Huge-page regions ------------------------------------------------------ */

/* The workspace and the weights, which every kernel streams through, live
 * in 2 MiB-aligned anonymous memory that asks for transparent huge pages
 * (MADV_HUGEPAGE: Linux's usual policy gives them only on request). On
 * 4 KiB pages a kernel walking a weight matrix touches a new page per row
 * (TLB misses), and where each page lands physically decides which rows
 * collide in the caches: two loads of one library differed by 7% in speed.
 * On huge pages the physical layout within 2 MiB is the virtual one, so a
 * run's speed no longer depends on the load. The advice is a hint: without
 * THP a region is ordinary memory. Buffers under REGION_MIN bytes stay on
 * the allocator (a huge page for a small model would waste most of it). */
#define HUGE_PAGE ((size_t)2 << 20)
#define REGION_MIN (HUGE_PAGE / 2)

/* `bytes` rounded up to whole huge pages; 0 on overflow. */
static size_t region_len(size_t bytes) {
    return bytes > SIZE_MAX - HUGE_PAGE ? 0 : (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* `bytes` of memory: a huge-page region from REGION_MIN bytes on,
 * an allocator block below; NULL when memory is exhausted. */
static void *bulk_alloc(size_t bytes) {
    if (bytes < REGION_MIN)
        return omlc_rt_alloc(NULL, bytes, MIN_ALIGN);
    size_t len = region_len(bytes);
    if (len == 0 || len > SIZE_MAX - HUGE_PAGE)
        return NULL;
    /* Map one huge page more than needed and trim to an aligned start. */
    size_t span = len + HUGE_PAGE;
    char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    size_t tail = (size_t)(raw + span - (start + len));
    if (tail > 0)
        munmap(start + len, tail);
#ifdef MADV_HUGEPAGE
    madvise(start, len, MADV_HUGEPAGE);
#endif
    return start;
}

/* Frees `p` from bulk_alloc(bytes); NULL is ignored. */
static void bulk_free(void *p, size_t bytes) {
    if (!p)
        return;
    if (bytes < REGION_MIN)
        omlc_rt_free(NULL, p);
    else
        munmap(p, region_len(bytes));
}

/* ---- Strided copies --------------------------------------------------------- */

/* MLIR's unranked memref: the rank, then a descriptor {allocated, aligned,
 * offset, sizes[rank], strides[rank]} (offset and strides in elements). */
typedef struct {
    int64_t rank;
    void *descriptor;
} omlc_unranked_memref;

/* `memrefCopy`, which `finalize-memref-to-llvm` calls for a `memref.copy`
 * between layouts that are not both contiguous: copies every element of
 * `src` to the same index of `dst` (same rank and sizes). Hidden, so that it
 * never clashes with another MLIR runtime loaded in the process. */
__attribute__((visibility("hidden"))) void memrefCopy(int64_t elem_size, omlc_unranked_memref *src,
                                                      omlc_unranked_memref *dst) {
    int64_t rank = src->rank;
    char *src_base = ((char **)src->descriptor)[1];
    char *dst_base = ((char **)dst->descriptor)[1];
    const int64_t *s = (const int64_t *)src->descriptor + 2;
    const int64_t *d = (const int64_t *)dst->descriptor + 2;
    /* s[0] offset, s[1..rank] sizes, s[1+rank..1+2rank] strides. */
    int64_t index[64] = {0};
    if (rank > 64)
        abort();
    for (int64_t k = 0; k < rank; k++)
        if (s[1 + k] == 0)
            return;
    for (;;) {
        int64_t so = s[0], dof = d[0];
        for (int64_t k = 0; k < rank; k++) {
            so += index[k] * s[1 + rank + k];
            dof += index[k] * d[1 + rank + k];
        }
        memcpy(dst_base + dof * elem_size, src_base + so * elem_size, (size_t)elem_size);
        int64_t k = rank - 1;
        while (k >= 0 && ++index[k] == s[1 + k])
            index[k--] = 0;
        if (k < 0)
            return;
    }
}

/* ---- Thread pool ---------------------------------------------------------- */

typedef void (*omlc_task)(void *ctx, int64_t begin, int64_t end);

/* Chunks per thread: enough to balance uneven chunks, few enough to keep
 * scheduling cheap. */
#define CHUNKS_PER_THREAD 4

/* How long an idle worker spins for the next loop before it sleeps: the
 * loops of a run come back to back, tens of microseconds each, about what
 * waking a sleeping thread takes (docs/runtime.md). */
#define SPIN_NS 500000

struct omlc_rt {
    int32_t nthreads;   /* threads a loop runs on, the caller included */
    int32_t nworkers;   /* nthreads - 1 */
    pthread_t *workers;
    pthread_mutex_t busy; /* held by the thread whose loop the pool runs */
    pthread_mutex_t mu;   /* guards everything below but `next` */
    pthread_cond_t wake;  /* workers: a new loop, or stop */
    pthread_cond_t done;  /* the caller: every chunk of the loop finished */
    uint64_t generation;  /* counts loops */
    _Atomic uint64_t latest; /* `generation`, for workers spinning without the lock */
    int sleeping;         /* workers waiting on `wake` */
    int64_t spin_ns;      /* how long to spin before sleeping: SPIN_NS, or 0 when
                           * there are more threads than CPUs */
    int stop;
    _Atomic int64_t finished; /* chunks of the current loop finished */
    omlc_task task;       /* the current loop */
    void *ctx;
    int64_t n, chunks;
    /* The next chunk to run (low 32 bits) of the loop whose generation's
     * low 32 bits are the high ones: a worker that wakes after its loop is
     * over cannot claim a chunk of the next one with the old task. */
    _Atomic uint64_t next;
};

/* Set on pool threads, and on a caller while it runs chunks of its loop:
 * a parallel_for from such a thread runs inline. */
static _Thread_local int in_loop;

/* Claims and runs chunks of loop `generation` until none are left (or the
 * loop is over). The caller of the loop waits until every chunk is
 * finished, so `task` and `ctx` are live while a claimed chunk runs. */
static void run_chunks(omlc_rt *rt, uint64_t generation, omlc_task task, void *ctx, int64_t n,
                       int64_t chunks) {
    const int64_t base = n / chunks, extra = n % chunks;
    const uint64_t tag = generation << 32;
    uint64_t cur = atomic_load_explicit(&rt->next, memory_order_relaxed);
    for (;;) {
        if ((cur & ~(uint64_t)0xffffffff) != tag)
            return;
        int64_t i = (int64_t)(cur & 0xffffffff);
        if (i >= chunks)
            return;
        if (!atomic_compare_exchange_weak_explicit(&rt->next, &cur, cur + 1, memory_order_relaxed,
                                                   memory_order_relaxed))
            continue;
        /* Sizes differ by at most one: the first `extra` chunks are longer. */
        int64_t begin = i * base + (i < extra ? i : extra);
        task(ctx, begin, begin + base + (i < extra));
        if (atomic_fetch_add_explicit(&rt->finished, 1, memory_order_acq_rel) + 1 == chunks) {
            /* Under the lock: a caller that saw the loop unfinished under
             * it is waiting by now. */
            pthread_mutex_lock(&rt->mu);
            pthread_cond_signal(&rt->done);
            pthread_mutex_unlock(&rt->mu);
        }
        cur = atomic_load_explicit(&rt->next, memory_order_relaxed);
    }
}

/* A pause in a spin loop. */
static inline void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Spins until a loop after `seen` is published, for at most rt->spin_ns. */
static void spin_for_loop(omlc_rt *rt, uint64_t seen) {
    if (rt->spin_ns == 0)
        return;
    const int64_t start = now_ns();
    for (unsigned spins = 1; atomic_load_explicit(&rt->latest, memory_order_acquire) == seen;
         spins++) {
        if (spins % 1024 == 0 && now_ns() - start > rt->spin_ns)
            return;
        spin_pause();
    }
}

static void *worker_main(void *arg) {
    omlc_rt *rt = arg;
    in_loop = 1;
    uint64_t seen = 0; /* loops start at generation 1 */
    for (;;) {
        spin_for_loop(rt, seen);
        pthread_mutex_lock(&rt->mu);
        while (!rt->stop && rt->generation == seen) {
            rt->sleeping++;
            pthread_cond_wait(&rt->wake, &rt->mu);
            rt->sleeping--;
        }
        if (rt->stop)
            break;
        seen = rt->generation;
        omlc_task task = rt->task;
        void *ctx = rt->ctx;
        int64_t n = rt->n, chunks = rt->chunks;
        pthread_mutex_unlock(&rt->mu);
        run_chunks(rt, seen & 0xffffffff, task, ctx, n, chunks);
    }
    pthread_mutex_unlock(&rt->mu);
    return NULL;
}

/* The caller runs chunks too, and waits only for chunks a worker claimed
 * and has not finished: a worker slow to wake (or descheduled on a busy
 * machine) finds the chunks taken and never holds the loop up. */
void omlc_rt_parallel_for(omlc_rt *rt, omlc_task task, void *ctx, int64_t n) {
    if (n <= 0)
        return;
    if (rt == NULL || rt->nworkers == 0 || in_loop || pthread_mutex_trylock(&rt->busy) != 0) {
        task(ctx, 0, n);
        return;
    }
    int64_t chunks = (int64_t)rt->nthreads * CHUNKS_PER_THREAD;
    if (chunks > n)
        chunks = n;
    pthread_mutex_lock(&rt->mu);
    rt->task = task;
    rt->ctx = ctx;
    rt->n = n;
    rt->chunks = chunks;
    atomic_store_explicit(&rt->finished, 0, memory_order_relaxed);
    rt->generation++;
    const uint64_t generation = rt->generation & 0xffffffff;
    atomic_store_explicit(&rt->next, generation << 32, memory_order_relaxed);
    atomic_store_explicit(&rt->latest, rt->generation, memory_order_release);
    if (rt->sleeping > 0)
        pthread_cond_broadcast(&rt->wake);
    pthread_mutex_unlock(&rt->mu);

    in_loop = 1;
    run_chunks(rt, generation, task, ctx, n, chunks);
    in_loop = 0;

    /* The last chunks usually end within microseconds: spin first. */
    const int64_t start = now_ns();
    for (unsigned spins = 1; rt->spin_ns > 0 &&
                             atomic_load_explicit(&rt->finished, memory_order_acquire) < chunks;
         spins++) {
        if (spins % 1024 == 0 && now_ns() - start > rt->spin_ns)
            break;
        spin_pause();
    }
    pthread_mutex_lock(&rt->mu);
    while (atomic_load_explicit(&rt->finished, memory_order_acquire) < chunks)
        pthread_cond_wait(&rt->done, &rt->mu);
    pthread_mutex_unlock(&rt->mu);
    pthread_mutex_unlock(&rt->busy);
}

/* Stops and joins the workers. */
static void pool_stop(omlc_rt *rt) {
    pthread_mutex_lock(&rt->mu);
    rt->stop = 1;
    /* Spinning workers stop spinning and find `stop` under the lock. */
    atomic_store_explicit(&rt->latest, rt->generation + 1, memory_order_release);
    pthread_cond_broadcast(&rt->wake);
    pthread_mutex_unlock(&rt->mu);
    for (int32_t i = 0; i < rt->nworkers; i++)
        pthread_join(rt->workers[i], NULL);
    rt->nworkers = 0;
    free(rt->workers);
    rt->workers = NULL;
}

/* Starts `nthreads - 1` workers; 0 on success. */
static int pool_start(omlc_rt *rt, int32_t nthreads) {
    rt->nthreads = nthreads;
    rt->nworkers = nthreads - 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    rt->spin_ns = cpus > 0 && nthreads <= cpus ? SPIN_NS : 0;
    if (rt->nworkers == 0)
        return 0;
    rt->workers = calloc((size_t)rt->nworkers, sizeof *rt->workers);
    if (!rt->workers) {
        set_error("out of memory starting %d threads", (int)nthreads);
        return -1;
    }
    for (int32_t i = 0; i < rt->nworkers; i++) {
        int err = pthread_create(&rt->workers[i], NULL, worker_main, rt);
        if (err != 0) {
            set_error("cannot start thread %d of %d: %s", (int)i + 2, (int)nthreads, strerror(err));
            rt->nworkers = i;
            pool_stop(rt);
            return -1;
        }
    }
    return 0;
}

/* Asks Linux (5.16 and later) for AMX's tile state, which a process must
 * request before its first tile instruction; a library compiled for a CPU
 * with AMX uses the tiles for 8-bit products. Elsewhere the request fails
 * harmlessly. */
static void request_amx(void) {
#if defined(__linux__) && defined(__x86_64__)
    const long arch_req_xcomp_perm = 0x1023, xfeature_xtiledata = 18;
    syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata);
#endif
}

/* ---- Sessions ------------------------------------------------------------- */

/* Where a symbolic dim's size comes from: the first input dim with the
 * same dim_param, or none (input < 0). */
typedef struct dim_ref {
    int32_t input, axis;
} dim_ref;

struct omlc_session {
    const omlc_model_info *info;
    omlc_main_fn main;
    omlc_rt rt;
    const void **weights;  /* num_weights pointers */
    void *map;             /* the side weights file, or NULL */
    size_t map_len;
    void *weights_copy;    /* the weights in a huge-page region (bulk_alloc), or NULL */
    const uint8_t *base;   /* the weights blob the session reads */
    omlc_session **variants; /* size variants: same model, some input dims fixed */
    int32_t num_variants;
    dim_ref *refs;         /* every dim of every input, then of every output */
    size_t *ref_start;     /* the first dim of io j (inputs, then outputs) in refs */
    pthread_mutex_t ws_mu; /* guards the workspace free list */
    void **ws_free;
    size_t ws_count, ws_cap;
};

/* Input or output `j` (inputs first). */
static const omlc_io_info *io_at(const omlc_model_info *info, int32_t j) {
    return j < info->num_inputs ? &info->inputs[j] : &info->outputs[j - info->num_inputs];
}

static const char *dim_param(const omlc_io_info *io, int32_t axis) {
    return io->dim_params ? io->dim_params[axis] : NULL;
}

/* Links every symbolic dim to the first input dim with its dim_param. */
static int build_refs(omlc_session *s) {
    const omlc_model_info *info = s->info;
    int32_t nio = info->num_inputs + info->num_outputs;
    size_t total = 0;
    s->ref_start = calloc((size_t)nio + 1, sizeof *s->ref_start);
    if (!s->ref_start)
        return -1;
    for (int32_t j = 0; j < nio; j++) {
        s->ref_start[j] = total;
        total += (size_t)io_at(info, j)->rank;
    }
    s->ref_start[nio] = total;
    s->refs = calloc(total ? total : 1, sizeof *s->refs);
    if (!s->refs)
        return -1;
    for (int32_t j = 0; j < nio; j++) {
        const omlc_io_info *io = io_at(info, j);
        for (int32_t a = 0; a < io->rank; a++) {
            dim_ref ref = {-1, -1};
            const char *p = dim_param(io, a);
            for (int32_t k = 0; p && ref.input < 0 && k < info->num_inputs; k++) {
                const omlc_io_info *in = &info->inputs[k];
                for (int32_t b = 0; b < in->rank; b++) {
                    const char *q = dim_param(in, b);
                    if (q && strcmp(p, q) == 0) {
                        ref = (dim_ref){k, b};
                        break;
                    }
                }
            }
            s->refs[s->ref_start[j] + (size_t)a] = ref;
        }
    }
    return 0;
}

/* The weights file's path: absolute, or next to this library. */
static int weights_path(const char *file, char *path, size_t size) {
    if (file[0] == '/')
        return snprintf(path, size, "%s", file) < (int)size ? 0 : -1;
    Dl_info dl;
    if (!dladdr(&__omlc_program, &dl) || !dl.dli_fname) {
        set_error("cannot locate the library to find its weights file \"%s\"", file);
        return -1;
    }
    const char *slash = strrchr(dl.dli_fname, '/');
    int dir_len = slash ? (int)(slash - dl.dli_fname) : 1;
    const char *dir = slash ? dl.dli_fname : ".";
    if (snprintf(path, size, "%.*s/%s", dir_len, dir, file) >= (int)size) {
        set_error("the path of weights file \"%s\" is too long", file);
        return -1;
    }
    return 0;
}

/* Maps the side weights file read-only. */
static int map_weights(omlc_session *s) {
    const omlc_model_info *info = s->info;
    char path[4096];
    if (weights_path(info->weights_file, path, sizeof path) != 0)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_error("cannot open weights file %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < info->weights_size) {
        set_error("weights file %s has %lld bytes, the model needs %llu", path,
                  (long long)st.st_size, (unsigned long long)info->weights_size);
        close(fd);
        return -1;
    }
    if (info->weights_size > 0) {
        void *map = mmap(NULL, (size_t)info->weights_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            set_error("cannot map weights file %s: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        s->map = map;
        s->map_len = (size_t)info->weights_size;
    }
    close(fd);
    return 0;
}

/* Finds the weights blob: embedded, or the side file mapped; large blobs
 * are copied into a huge-page region (see bulk_alloc). */
static int load_base(omlc_session *s) {
    const omlc_model_info *info = s->info;
    const uint8_t *base = info->weights_blob;
    if (!base) {
        if (!info->weights_file) {
            set_error("the model has %d weights but neither weights_blob nor weights_file",
                      (int)info->num_weights);
            return -1;
        }
        if (map_weights(s) != 0)
            return -1;
        base = s->map;
    }
    if (info->weights_size >= REGION_MIN) {
        if (!(s->weights_copy = bulk_alloc((size_t)info->weights_size))) {
            set_error("out of memory for %llu bytes of weights",
                      (unsigned long long)info->weights_size);
            return -1;
        }
        memcpy(s->weights_copy, base, (size_t)info->weights_size);
        base = s->weights_copy;
        if (s->map) {
            munmap(s->map, s->map_len);
            s->map = NULL;
        }
    }
    s->base = base;
    return 0;
}

/* The weight pointer table into `base`, a blob of `size` bytes. */
static int point_weights(omlc_session *s, const uint8_t *base, uint64_t size) {
    const omlc_model_info *info = s->info;
    s->weights = calloc((size_t)info->num_weights, sizeof *s->weights);
    if (!s->weights) {
        set_error("out of memory");
        return -1;
    }
    for (int32_t k = 0; k < info->num_weights; k++) {
        uint64_t offset = info->weight_offsets[k];
        if (offset > size) {
            set_error("weight %d at offset %llu is outside the %llu-byte blob", (int)k,
                      (unsigned long long)offset, (unsigned long long)size);
            return -1;
        }
        s->weights[k] = base + offset;
    }
    return 0;
}

/* The weights blob and the pointer table into it. */
static int load_weights(omlc_session *s) {
    /* A model's size variants may read weights the general code does not. */
    if (s->info->num_weights <= 0 && s->info->weights_size == 0)
        return 0;
    if (load_base(s) != 0)
        return -1;
    return s->info->num_weights > 0 ? point_weights(s, s->base, s->info->weights_size) : 0;
}

/* Checks that every input and output has a type the runtime handles. */
static int check_types(const omlc_model_info *info) {
    for (int32_t j = 0; j < info->num_inputs + info->num_outputs; j++) {
        const omlc_io_info *io = io_at(info, j);
        if (dtype_bits(io->dtype) == 0) {
            char buf[24];
            set_error("%s \"%s\" has element type %s, which the runtime does not support",
                      j < info->num_inputs ? "input" : "output", io->name,
                      dtype_str(io->dtype, buf));
            return -1;
        }
    }
    return 0;
}

const omlc_model_info *omlc_model_info_get(void) {
    return __omlc_program.program ? NULL : __omlc_program.segments[0].info;
}

const omlc_program_info *omlc_program_get(void) { return &__omlc_program; }

void omlc_session_destroy(omlc_session *s) {
    if (!s)
        return;
    for (int32_t k = 0; k < s->num_variants; k++)
        omlc_session_destroy(s->variants[k]);
    free(s->variants);
    pool_stop(&s->rt);
    for (size_t i = 0; i < s->ws_count; i++)
        bulk_free(s->ws_free[i], (size_t)s->info->workspace_size);
    free(s->ws_free);
    free(s->weights);
    bulk_free(s->weights_copy, (size_t)s->info->weights_size);
    if (s->map)
        munmap(s->map, s->map_len);
    free(s->refs);
    free(s->ref_start);
    pthread_mutex_destroy(&s->ws_mu);
    pthread_mutex_destroy(&s->rt.busy);
    pthread_mutex_destroy(&s->rt.mu);
    pthread_cond_destroy(&s->rt.wake);
    pthread_cond_destroy(&s->rt.done);
    free(s);
}

/* Checks a compiled model's ABI version and types before a session of it. */
static int check_model(const omlc_model_info *info) {
    if (info->abi_version != OMLC_ABI_VERSION) {
        set_error("the model uses runtime ABI version %u, this runtime implements %d",
                  (unsigned)info->abi_version, OMLC_ABI_VERSION);
        return -1;
    }
    return check_types(info);
}

/* A session of one compiled model without weights or threads yet; NULL
 * when out of memory. */
static omlc_session *session_new(const omlc_segment_info *segment) {
    omlc_session *s = calloc(1, sizeof *s);
    if (!s) {
        set_error("out of memory");
        return NULL;
    }
    s->info = segment->info;
    s->main = segment->main;
    pthread_mutex_init(&s->ws_mu, NULL);
    pthread_mutex_init(&s->rt.busy, NULL);
    pthread_mutex_init(&s->rt.mu, NULL);
    pthread_cond_init(&s->rt.wake, NULL);
    pthread_cond_init(&s->rt.done, NULL);
    if (build_refs(s) != 0) {
        set_error("out of memory");
        omlc_session_destroy(s);
        return NULL;
    }
    return s;
}

/* The size variants of the library's one model, as sessions reading the
 * weights `s` loaded (they share its blob) and running on its pool. */
static int add_variants(omlc_session *s, const omlc_program_info *p) {
    if (p->num_variants <= 0)
        return 0;
    s->variants = calloc((size_t)p->num_variants, sizeof *s->variants);
    if (!s->variants) {
        set_error("out of memory");
        return -1;
    }
    for (int32_t k = 0; k < p->num_variants; k++) {
        const omlc_model_info *info = p->variants[k].info;
        if (check_model(info) != 0)
            return -1;
        if (info->num_inputs != s->info->num_inputs) {
            set_error("size variant %d has %d inputs, the model %d", (int)k,
                      (int)info->num_inputs, (int)s->info->num_inputs);
            return -1;
        }
        omlc_session *v = session_new(&p->variants[k]);
        if (!v)
            return -1;
        s->variants[s->num_variants++] = v;
        if (info->num_weights > 0 && point_weights(v, s->base, s->info->weights_size) != 0)
            return -1;
    }
    return 0;
}

omlc_session *omlc_segment_session_create(int32_t segment, int32_t num_threads) {
    clear_error();
    const omlc_program_info *p = &__omlc_program;
    if (p->abi_version != OMLC_ABI_VERSION) {
        set_error("the library uses runtime ABI version %u, this runtime implements %d",
                  (unsigned)p->abi_version, OMLC_ABI_VERSION);
        return NULL;
    }
    if (segment < 0 || segment >= p->num_segments) {
        set_error("segment %d does not exist: the library has %d", (int)segment,
                  (int)p->num_segments);
        return NULL;
    }
    if (check_model(p->segments[segment].info) != 0)
        return NULL;
    request_amx();
    if (num_threads <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        num_threads = cpus > 0 && cpus < 4096 ? (int32_t)cpus : 1;
    }
    omlc_session *s = session_new(&p->segments[segment]);
    if (!s)
        return NULL;
    if (load_weights(s) != 0 || pool_start(&s->rt, num_threads) != 0)
        goto fail;
    if (!p->program && add_variants(s, p) != 0)
        goto fail;
    return s;
fail:
    omlc_session_destroy(s);
    return NULL;
}

omlc_session *omlc_session_create(int32_t num_threads) {
    if (__omlc_program.program) {
        clear_error();
        set_error("this library holds a host program of %d compiled segments (sequences, "
                  "optionals, strings or run-time control flow): run it through the onnx-mlc "
                  "runtime, which interprets the program (omlc_program_get)",
                  (int)__omlc_program.num_segments);
        return NULL;
    }
    return omlc_segment_session_create(0, num_threads);
}

const char *omlc_session_last_error(const omlc_session *s) {
    (void)s;
    return last_error;
}

const char *omlc_last_error(void) { return last_error; }

/* `a * b` into `out`; 0 on overflow. */
static int mul_ok(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}

/* Bytes of a tensor of `dtype` with these dims; -1 when too large. */
static int64_t tensor_bytes(int32_t dtype, const int64_t *shape, int32_t rank) {
    int64_t bits = dtype_bits(dtype);
    for (int32_t a = 0; a < rank; a++)
        if (!mul_ok(bits, shape[a], &bits))
            return -1;
    return bits / 8 + (bits % 8 != 0);
}

/* Validates input `k` (after inputs 0..k-1). */
static int check_input(const omlc_session *s, const omlc_tensor *inputs, int32_t k) {
    const omlc_io_info *io = &s->info->inputs[k];
    const omlc_tensor *t = &inputs[k];
    const dim_ref *refs = &s->refs[s->ref_start[k]];
    if (t->dtype != io->dtype) {
        char b1[24], b2[24];
        set_error("input \"%s\": expected element type %s, got %s", io->name,
                  dtype_str(io->dtype, b1), dtype_str(t->dtype, b2));
        return -1;
    }
    if (t->rank != io->rank) {
        set_error("input \"%s\": expected rank %d, got %d", io->name, (int)io->rank,
                  (int)t->rank);
        return -1;
    }
    if (t->rank > 0 && !t->shape) {
        set_error("input \"%s\": shape is NULL", io->name);
        return -1;
    }
    for (int32_t a = 0; a < io->rank; a++) {
        int64_t got = t->shape[a];
        if (got < 0) {
            set_error("input \"%s\": dim %d is negative (%lld)", io->name, (int)a,
                      (long long)got);
            return -1;
        }
        if (io->dims[a] >= 0 && got != io->dims[a]) {
            set_error("input \"%s\": dim %d must be %lld, got %lld", io->name, (int)a,
                      (long long)io->dims[a], (long long)got);
            return -1;
        }
        dim_ref ref = refs[a];
        if (ref.input < 0 || (ref.input == k && ref.axis == a))
            continue;
        int64_t bound = inputs[ref.input].shape[ref.axis];
        if (bound != got) {
            set_error("input \"%s\": dim %d (\"%s\") is %lld, but input \"%s\" dim %d bound "
                      "\"%s\" to %lld",
                      io->name, (int)a, dim_param(io, a), (long long)got,
                      s->info->inputs[ref.input].name, (int)ref.axis, dim_param(io, a),
                      (long long)bound);
            return -1;
        }
    }
    int64_t bytes = tensor_bytes(t->dtype, t->shape, t->rank);
    if (bytes < 0) {
        set_error("input \"%s\": too many elements", io->name);
        return -1;
    }
    if (bytes > 0 && !t->data) {
        set_error("input \"%s\": data is NULL", io->name);
        return -1;
    }
    if ((uintptr_t)t->data % dtype_align(t->dtype) != 0) {
        set_error("input \"%s\": data is not aligned to its %d-byte elements", io->name,
                  (int)dtype_align(t->dtype));
        return -1;
    }
    return 0;
}

/* The size output `k`'s dim `a` must have, or -1 when only the run knows. */
static int64_t expected_dim(const omlc_session *s, const omlc_tensor *inputs, int32_t k,
                            int32_t a) {
    const omlc_io_info *io = &s->info->outputs[k];
    if (io->dims[a] >= 0)
        return io->dims[a];
    dim_ref ref = s->refs[s->ref_start[s->info->num_inputs + k] + (size_t)a];
    return ref.input >= 0 ? inputs[ref.input].shape[ref.axis] : -1;
}

/* Prepares output `k`: rank, dtype, and the shape and buffer when the
 * inputs determine them. Returns an OMLC_* code. */
static int32_t prepare_output(omlc_session *s, const omlc_tensor *inputs, omlc_tensor *o,
                              int32_t k) {
    const omlc_io_info *io = &s->info->outputs[k];
    if (io->rank > 0 && !o->shape) {
        set_error("output \"%s\": shape is NULL (it needs %d entries)", io->name, (int)io->rank);
        return OMLC_ERR_INVALID_ARGUMENT;
    }
    o->rank = io->rank;
    o->dtype = io->dtype;
    int known = 1;
    for (int32_t a = 0; a < io->rank; a++) {
        int64_t d = expected_dim(s, inputs, k, a);
        o->shape[a] = d;
        known &= d >= 0;
    }
    if (!known) {
        if (o->data) {
            set_error("output \"%s\": its shape depends on the input values; pass data = NULL",
                      io->name);
            return OMLC_ERR_INVALID_ARGUMENT;
        }
        return OMLC_OK;
    }
    if (o->data) {
        if ((uintptr_t)o->data % dtype_align(io->dtype) == 0)
            return OMLC_OK;
        set_error("output \"%s\": data is not aligned to its %d-byte elements", io->name,
                  (int)dtype_align(io->dtype));
        return OMLC_ERR_INVALID_ARGUMENT;
    }
    int64_t bytes = tensor_bytes(io->dtype, o->shape, io->rank);
    if (bytes < 0 || !(o->data = omlc_rt_alloc(&s->rt, (uint64_t)bytes, MIN_ALIGN))) {
        set_error("output \"%s\": out of memory", io->name);
        return OMLC_ERR_ALLOC;
    }
    return OMLC_OK;
}

/* Writes "[d0, d1, ...]" into buf. */
static void format_dims(char *buf, size_t size, const int64_t *dims, int32_t rank) {
    size_t len = (size_t)snprintf(buf, size, "[");
    for (int32_t a = 0; a < rank && len < size; a++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", a ? ", " : "",
                                (long long)dims[a]);
    if (len < size)
        snprintf(buf + len, size - len, "]");
}

/* Checks what the model wrote into output `k`. */
static int check_output(const omlc_session *s, const omlc_tensor *inputs, const omlc_tensor *o,
                        int32_t k) {
    const omlc_io_info *io = &s->info->outputs[k];
    for (int32_t a = 0; a < io->rank; a++) {
        int64_t expected = expected_dim(s, inputs, k, a), got = o->shape[a];
        if (got < 0 || (expected >= 0 && got != expected)) {
            char shape[160], must[96];
            format_dims(shape, sizeof shape, o->shape, io->rank);
            if (expected < 0)
                snprintf(must, sizeof must, "non-negative");
            else if (io->dims[a] < 0)
                snprintf(must, sizeof must, "%lld (\"%s\")", (long long)expected,
                         dim_param(io, a));
            else
                snprintf(must, sizeof must, "%lld", (long long)expected);
            set_error("output \"%s\": the model wrote shape %s, but dim %d must be %s", io->name,
                      shape, (int)a, must);
            return -1;
        }
    }
    if (!o->data) {
        set_error("output \"%s\": the model returned no data", io->name);
        return -1;
    }
    return 0;
}

static void *take_workspace(omlc_session *s) {
    pthread_mutex_lock(&s->ws_mu);
    void *ws = s->ws_count > 0 ? s->ws_free[--s->ws_count] : NULL;
    pthread_mutex_unlock(&s->ws_mu);
    return ws ? ws : bulk_alloc((size_t)s->info->workspace_size);
}

static void give_workspace(omlc_session *s, void *ws) {
    pthread_mutex_lock(&s->ws_mu);
    if (s->ws_count == s->ws_cap) {
        size_t cap = s->ws_cap ? 2 * s->ws_cap : 4;
        void **grown = realloc(s->ws_free, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&s->ws_mu);
            bulk_free(ws, (size_t)s->info->workspace_size);
            return;
        }
        s->ws_free = grown;
        s->ws_cap = cap;
    }
    s->ws_free[s->ws_count++] = ws;
    pthread_mutex_unlock(&s->ws_mu);
}

/* Frees the outputs the run allocated (those `owned`) and resets them. */
static void release_outputs(omlc_session *s, omlc_tensor *outputs, const unsigned char *owned) {
    for (int32_t k = 0; k < s->info->num_outputs; k++) {
        if (owned[k]) {
            omlc_rt_free(&s->rt, outputs[k].data);
            outputs[k].data = NULL;
        }
    }
}

/* Whether size variant `v` is compiled for these (valid) inputs' sizes. */
static int variant_fits(const omlc_session *v, const omlc_tensor *inputs) {
    for (int32_t k = 0; k < v->info->num_inputs; k++) {
        const omlc_io_info *io = &v->info->inputs[k];
        for (int32_t a = 0; a < io->rank; a++)
            if (io->dims[a] >= 0 && inputs[k].shape[a] != io->dims[a])
                return 0;
    }
    return 1;
}

/* Runs the compiled model of `s` on valid inputs, its loops on `rt`. */
static int32_t run_model(omlc_session *s, omlc_rt *rt, const omlc_tensor *inputs,
                         omlc_tensor *outputs) {
    const omlc_model_info *info = s->info;
    unsigned char *owned = calloc((size_t)info->num_outputs + 1, 1);
    if (!owned) {
        set_error("out of memory");
        return OMLC_ERR_ALLOC;
    }
    int32_t rc = OMLC_OK;
    for (int32_t k = 0; k < info->num_outputs && rc == OMLC_OK; k++) {
        int was_null = outputs[k].data == NULL;
        rc = prepare_output(s, inputs, &outputs[k], k);
        owned[k] = (unsigned char)was_null;
    }
    void *ws = rc == OMLC_OK ? take_workspace(s) : NULL;
    if (rc == OMLC_OK && !ws) {
        set_error("out of memory for a %llu-byte workspace",
                  (unsigned long long)info->workspace_size);
        rc = OMLC_ERR_ALLOC;
    }
    if (rc == OMLC_OK) {
        rc = s->main(inputs, outputs, ws, s->weights, rt);
        give_workspace(s, ws);
        if (rc != OMLC_OK)
            set_error("model failed: %s (%d): %s", code_name(rc), (int)rc, code_meaning(rc));
    }
    for (int32_t k = 0; k < info->num_outputs && rc == OMLC_OK; k++)
        if (check_output(s, inputs, &outputs[k], k) != 0)
            rc = OMLC_ERR_INTERNAL;
    if (rc != OMLC_OK)
        release_outputs(s, outputs, owned);
    free(owned);
    return rc;
}

int32_t omlc_session_run(omlc_session *s, const omlc_tensor *inputs, omlc_tensor *outputs) {
    clear_error();
    if (!s) {
        set_error("session is NULL");
        return OMLC_ERR_INVALID_ARGUMENT;
    }
    const omlc_model_info *info = s->info;
    if ((info->num_inputs > 0 && !inputs) || (info->num_outputs > 0 && !outputs)) {
        set_error("%s is NULL", !inputs ? "inputs" : "outputs");
        return OMLC_ERR_INVALID_ARGUMENT;
    }
    for (int32_t k = 0; k < info->num_inputs; k++)
        if (check_input(s, inputs, k) != 0)
            return OMLC_ERR_INVALID_ARGUMENT;
    /* The first size variant compiled for these sizes, else the general code. */
    omlc_session *code = s;
    for (int32_t k = 0; k < s->num_variants && code == s; k++)
        if (variant_fits(s->variants[k], inputs))
            code = s->variants[k];
    return run_model(code, &s->rt, inputs, outputs);
}
