/*
 * onnx-mlc runtime ABI, version 2 (docs/abi.md is the contract).
 *
 * This header declares both sides of the ABI:
 *   - the types shared by compiled models and runtimes;
 *   - what a compiled model defines (__omlc_info, __omlc_main) and what a
 *     library defines around its models (__omlc_program);
 *   - what the runtime gives compiled code (omlc_rt_parallel_for,
 *     omlc_rt_alloc, omlc_rt_free);
 *   - the public API of an AOT library (omlc_model_info_get,
 *     omlc_session_*, omlc_program_get, omlc_segment_session_create),
 *     implemented by omlc_rt.c on top of the library's models.
 *
 * In an AOT library only the public API is exported; the model's symbols
 * and the runtime functions are hidden, so that several compiled models
 * can be loaded into one process.
 */
#ifndef OMLC_RT_H
#define OMLC_RT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define OMLC_HIDDEN __attribute__((visibility("hidden")))
#define OMLC_EXPORT __attribute__((visibility("default")))
#else
#define OMLC_HIDDEN
#define OMLC_EXPORT
#endif

#define OMLC_ABI_VERSION 2

/* Return codes of __omlc_main and omlc_session_run. */
#define OMLC_OK                   0
#define OMLC_ERR_INVALID_ARGUMENT 1 /* inputs/outputs do not match the model */
#define OMLC_ERR_ALLOC            2 /* out of memory */
#define OMLC_ERR_SHAPE            3 /* a run-time shape check failed */
#define OMLC_ERR_INDEX            4 /* an index is out of range */
#define OMLC_ERR_UNSUPPORTED      5 /* input values the compiled code cannot handle */
#define OMLC_ERR_INTERNAL         6 /* a compiler or runtime bug */
#define OMLC_ERR_IO               7 /* the weights file cannot be read */

/* A dense tensor: row-major, contiguous. */
typedef struct omlc_tensor {
    void    *data;  /* element buffer; 64-byte alignment recommended */
    int64_t *shape; /* `rank` entries; for outputs a caller buffer the model writes */
    int32_t  rank;
    int32_t  dtype; /* ONNX TensorProto.DataType code (1 = float, 7 = int64, ...) */
} omlc_tensor;

/* Opaque: the runtime context (thread pool, allocator). */
typedef struct omlc_rt omlc_rt;

/* Describes one graph input or output. */
typedef struct omlc_io_info {
    const char        *name;
    int32_t            dtype;
    int32_t            rank;
    const int64_t     *dims;       /* `rank` entries; -1 where symbolic or unknown */
    const char *const *dim_params; /* `rank` entries or NULL; NULL where not a dim_param */
} omlc_io_info;

/* Everything the runtime needs to know about a compiled model. */
typedef struct omlc_model_info {
    uint32_t            abi_version;    /* OMLC_ABI_VERSION */
    int32_t             num_inputs;
    int32_t             num_outputs;
    const omlc_io_info *inputs;
    const omlc_io_info *outputs;
    uint64_t            workspace_size; /* bytes of the static arena (64-byte aligned) */
    int32_t             num_weights;
    const uint64_t     *weight_offsets; /* `num_weights` byte offsets, multiples of 64 */
    uint64_t            weights_size;   /* bytes */
    const uint8_t      *weights_blob;   /* embedded weights (64-byte aligned), or NULL */
    const char         *weights_file;   /* side file name (next to the library), or NULL */
} omlc_model_info;

/* A compiled model's entry: runs it once (docs/abi.md: the rules on outputs). */
typedef int32_t (*omlc_main_fn)(const omlc_tensor *inputs, omlc_tensor *outputs,
                                uint8_t *workspace, const void *const *weights, omlc_rt *rt);

/* One compiled model of a library: its description and its entry. */
typedef struct omlc_segment_info {
    const omlc_model_info *info;
    omlc_main_fn           main;
} omlc_segment_info;

/* What a library holds: one model (one segment, no program), or a host
 * program (docs/runtime.md, "Host programs"): compiled segments, and the
 * serialized program of host steps and control flow that calls them, which
 * the onnx-mlc runtime interprets. A library of one model may also hold
 * size variants (`onnx-mlc --specialize`): the same model compiled for
 * fixed sizes of some of its symbolic input dims, which a session runs
 * instead of the general code when a run's inputs have those sizes. */
typedef struct omlc_program_info {
    uint32_t                 abi_version;  /* OMLC_ABI_VERSION */
    int32_t                  num_segments;
    const omlc_segment_info *segments;     /* `num_segments` entries */
    const uint8_t           *program;      /* the serialized program, or NULL for one model */
    uint64_t                 program_size; /* bytes */
    int32_t                  num_variants;
    const omlc_segment_info *variants;     /* `num_variants` entries, sharing segment 0's
                                              weights blob (their offsets point into it) */
} omlc_program_info;

/* ---- Defined by the compiled model ------------------------------------- */

extern const omlc_model_info __omlc_info OMLC_HIDDEN;

/* Runs the model once; see docs/abi.md for the rules on outputs. */
int32_t __omlc_main(const omlc_tensor *inputs, omlc_tensor *outputs, uint8_t *workspace,
                    const void *const *weights, omlc_rt *rt) OMLC_HIDDEN;

/* The library's models (a library of several prefixes each model's symbols
 * with __omlc_s<K>_). */
extern const omlc_program_info __omlc_program OMLC_HIDDEN;

/* ---- Given to compiled code by the runtime ----------------------------- */

/* Calls task(ctx, begin, end) over disjoint ranges covering [0, n) on the
 * runtime's threads (or inline) and returns when all are done. */
void omlc_rt_parallel_for(omlc_rt *rt, void (*task)(void *ctx, int64_t begin, int64_t end),
                          void *ctx, int64_t n) OMLC_HIDDEN;
/* `bytes` bytes aligned to `align` (a power of two, 0 = default; never less
 * than 64), uninitialized; NULL when out of memory or `align` is invalid. */
void *omlc_rt_alloc(omlc_rt *rt, uint64_t bytes, uint64_t align) OMLC_HIDDEN;
/* Frees a block from omlc_rt_alloc; NULL is ignored. */
void omlc_rt_free(omlc_rt *rt, void *ptr) OMLC_HIDDEN;

/* ---- Public API of an AOT library --------------------------------------- */

/* The model's description (names, dtypes, dims, dim_params); NULL for a
 * library of a host program, whose inputs and outputs may be sequences,
 * optionals or strings. */
OMLC_EXPORT const omlc_model_info *omlc_model_info_get(void);

typedef struct omlc_session omlc_session;

/* A session running the model's loops on `num_threads` threads (<= 0: one
 * per online CPU). NULL on failure; omlc_last_error() says why (a library
 * of a host program has no session of its own: see below). */
OMLC_EXPORT omlc_session *omlc_session_create(int32_t num_threads);

/* The library's models and its host program: a host program runs in the
 * onnx-mlc runtime (Rust or Python), which interprets `program` and runs
 * each segment through a session of omlc_segment_session_create. */
OMLC_EXPORT const omlc_program_info *omlc_program_get(void);

/* A session of segment `segment` (0 for the only model of a library without
 * a program), used like one from omlc_session_create. */
OMLC_EXPORT omlc_session *omlc_segment_session_create(int32_t segment, int32_t num_threads);

/* Runs the model. `inputs`/`outputs` are in graph order. For each output
 * the caller sets `shape` to a buffer of the output's rank (NULL allowed for
 * rank 0) and `data` to NULL (the run allocates it; free it with omlc_free)
 * or to a buffer of the right size (only for outputs whose shape the inputs
 * determine). The run fills in rank, dtype, shape and data. Returns OMLC_OK
 * or an OMLC_ERR_* code, with a message in omlc_session_last_error(); on
 * failure outputs that came with data == NULL have data == NULL again.
 * Safe to call from several threads at once on one session. */
OMLC_EXPORT int32_t omlc_session_run(omlc_session *s, const omlc_tensor *inputs,
                                     omlc_tensor *outputs);

/* The message of the last failed call this thread made into the library
 * ("" after a successful call); valid until this thread's next call. */
OMLC_EXPORT const char *omlc_session_last_error(const omlc_session *s);
OMLC_EXPORT const char *omlc_last_error(void);

/* Frees an output buffer a run allocated (also after the session is gone). */
OMLC_EXPORT void omlc_free(void *data);

OMLC_EXPORT void omlc_session_destroy(omlc_session *s);

#ifdef __cplusplus
}
#endif

#endif /* OMLC_RT_H */
