/*
 * A model that exercises omlc_rt_parallel_for the way generated code does:
 *   input  x: ui8["N", "M"]   (only its shape matters)
 *   output hits: i32["N", "M"]
 * Rows run in an outer parallel loop, and each row's columns in a nested
 * one; every task adds 1 to the cells of its range, so a correct pool
 * leaves every cell at exactly 1. A range outside [0, n) or empty makes
 * the run fail with OMLC_ERR_INTERNAL.
 */
#include "omlc_rt.h"

#include <string.h>

static const int64_t dims[] = {-1, -1};
static const char *const params[] = {"N", "M"};
static const omlc_io_info inputs[] = {{"x", 2, 2, dims, params}};
static const omlc_io_info outputs[] = {{"hits", 6, 2, dims, params}};

const omlc_model_info __omlc_info = {
    .abi_version = OMLC_ABI_VERSION,
    .num_inputs = 1,
    .num_outputs = 1,
    .inputs = inputs,
    .outputs = outputs,
};

typedef struct grid {
    int32_t *hits;
    int64_t rows, cols;
    omlc_rt *rt;
    int bad; /* set (atomically) on a bad range */
} grid;

typedef struct row {
    grid *g;
    int64_t r;
} row;

static void check_range(grid *g, int64_t begin, int64_t end, int64_t n) {
    if (begin < 0 || begin >= end || end > n)
        __atomic_store_n(&g->bad, 1, __ATOMIC_RELAXED);
}

static void col_task(void *ctx, int64_t begin, int64_t end) {
    row *r = ctx;
    check_range(r->g, begin, end, r->g->cols);
    for (int64_t c = begin; c < end; c++)
        __atomic_fetch_add(&r->g->hits[r->r * r->g->cols + c], 1, __ATOMIC_RELAXED);
}

static void row_task(void *ctx, int64_t begin, int64_t end) {
    grid *g = ctx;
    check_range(g, begin, end, g->rows);
    for (int64_t r = begin; r < end; r++) {
        row arg = {g, r};
        omlc_rt_parallel_for(g->rt, col_task, &arg, g->cols);
    }
}

int32_t __omlc_main(const omlc_tensor *in, omlc_tensor *out, uint8_t *workspace,
                    const void *const *weights, omlc_rt *rt) {
    (void)workspace;
    (void)weights;
    grid g = {out[0].data, in[0].shape[0], in[0].shape[1], rt, 0};
    memset(g.hits, 0, (size_t)(g.rows * g.cols) * sizeof *g.hits);
    out[0].shape[0] = g.rows;
    out[0].shape[1] = g.cols;
    omlc_rt_parallel_for(rt, row_task, &g, g.rows);
    return g.bad ? OMLC_ERR_INTERNAL : OMLC_OK;
}

/* The library's table of models: this one model, no host program. */
static const omlc_segment_info segments[] = {{&__omlc_info, __omlc_main}};
const omlc_program_info __omlc_program = {OMLC_ABI_VERSION, 1, segments, NULL, 0, 0, NULL};
