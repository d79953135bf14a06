/*
 * A hand-written model with the ABI of generated code (docs/abi.md):
 *   inputs  a: f32["N", 3], b: f32["N", 3]; weights w: f32[3], c: f32[1]
 *   outputs sum: f32["N", 3] = a + b + w + c   (rows in parallel)
 *           total: f32[]     = sum of `sum`, in order
 *           pos: i64["K"]    = flat indices where sum > 0 (data-dependent)
 * It fails with OMLC_ERR_UNSUPPORTED when a[0] is NaN, after allocating
 * `pos`. The loop's context lives in the workspace, so concurrent runs that
 * shared a workspace would mix up their inputs.
 *
 * Built with the embedded weights below, or with -DWEIGHTS_FILE="name" to
 * read them from a side file next to the library.
 */
#include "omlc_rt.h"

#include <math.h>
#include <stddef.h>

static const int64_t io_dims[] = {-1, 3};
static const char *const io_params[] = {"N", NULL};
static const int64_t pos_dims[] = {-1};
static const char *const pos_params[] = {"K"};

static const omlc_io_info inputs[] = {
    {"a", 1, 2, io_dims, io_params},
    {"b", 1, 2, io_dims, io_params},
};
static const omlc_io_info outputs[] = {
    {"sum", 1, 2, io_dims, io_params},
    {"total", 1, 0, NULL, NULL},
    {"pos", 7, 1, pos_dims, pos_params},
};
static const uint64_t offsets[] = {0, 64};

#ifdef WEIGHTS_FILE
#define BLOB NULL
#define FILE_NAME WEIGHTS_FILE
#else
static const struct {
    float w[16];
    float c[16];
} __attribute__((aligned(64))) blob = {{0.5f, -1.0f, 2.0f}, {0.25f}};
#define BLOB ((const uint8_t *)&blob)
#define FILE_NAME NULL
#endif

const omlc_model_info __omlc_info = {
    .abi_version = OMLC_ABI_VERSION,
    .num_inputs = 2,
    .num_outputs = 3,
    .inputs = inputs,
    .outputs = outputs,
    .workspace_size = 64,
    .num_weights = 2,
    .weight_offsets = offsets,
    .weights_size = 128,
    .weights_blob = BLOB,
    .weights_file = FILE_NAME,
};

typedef struct row_job {
    const float *a, *b, *w, *c;
    float *sum;
} row_job;

static void row_task(void *ctx, int64_t begin, int64_t end) {
    const row_job *job = ctx;
    for (int64_t i = begin * 3; i < end * 3; i++)
        job->sum[i] = job->a[i] + job->b[i] + job->w[i % 3] + job->c[0];
}

int32_t __omlc_main(const omlc_tensor *in, omlc_tensor *out, uint8_t *workspace,
                    const void *const *weights, omlc_rt *rt) {
    int64_t n = in[0].shape[0], len = n * 3;
    const float *a = in[0].data;
    if (n > 0 && isnan(a[0])) {
        out[2].data = omlc_rt_alloc(rt, 8, 64); /* the caller frees it */
        return OMLC_ERR_UNSUPPORTED;
    }
    if (!out[0].data)
        out[0].data = omlc_rt_alloc(rt, (uint64_t)len * 4, 64);
    if (!out[0].data)
        return OMLC_ERR_ALLOC;
    out[0].shape[0] = n;
    out[0].shape[1] = 3;
    row_job *job = (row_job *)workspace;
    *job = (row_job){a, in[1].data, weights[0], weights[1], out[0].data};
    omlc_rt_parallel_for(rt, row_task, job, n);

    const float *sum = out[0].data;
    float total = 0;
    int64_t count = 0;
    for (int64_t i = 0; i < len; i++) {
        total += sum[i];
        count += sum[i] > 0;
    }
    *(float *)out[1].data = total;
    int64_t *pos = omlc_rt_alloc(rt, (uint64_t)count * 8, 64);
    if (!pos)
        return OMLC_ERR_ALLOC;
    for (int64_t i = 0, j = 0; i < len; i++)
        if (sum[i] > 0)
            pos[j++] = i;
    out[2].data = pos;
    out[2].shape[0] = count;
    return OMLC_OK;
}

/* The library's table of models: this one model, no host program. */
static const omlc_segment_info segments[] = {{&__omlc_info, __omlc_main}};
const omlc_program_info __omlc_program = {OMLC_ABI_VERSION, 1, segments, NULL, 0, 0, NULL};
