/*
 * A hand-written model with size variants (docs/abi.md, `--specialize`):
 *   input  x: f32["N", 2]; weight w: f32[2] = {1, 2}
 *   output y: f32["N", 2] = x + w + tag
 * The general code has tag 0, the variant for N = 1 tag 10 and the one for
 * N = 3 tag 20. A compiled variant computes what the general code does;
 * here the tags show which code a run took. The variants describe no blob
 * of their own: they read their copy of w at their own offsets in the
 * general code's blob, which the session loads once.
 */
#include "omlc_rt.h"

#include <stddef.h>

static const int64_t general_dims[] = {-1, 2};
static const char *const general_params[] = {"N", NULL};
static const int64_t one_dims[] = {1, 2};
static const int64_t three_dims[] = {3, 2};

static const omlc_io_info general_io[] = {{"x", 1, 2, general_dims, general_params}};
static const omlc_io_info one_io[] = {{"x", 1, 2, one_dims, NULL}};
static const omlc_io_info three_io[] = {{"x", 1, 2, three_dims, NULL}};
static const omlc_io_info general_out[] = {{"y", 1, 2, general_dims, general_params}};
static const omlc_io_info one_out[] = {{"y", 1, 2, one_dims, NULL}};
static const omlc_io_info three_out[] = {{"y", 1, 2, three_dims, NULL}};

/* w three times, each at a 64-byte aligned offset. */
static const struct {
    float w[3][16];
} __attribute__((aligned(64))) blob = {{{1.0f, 2.0f}, {1.0f, 2.0f}, {1.0f, 2.0f}}};
static const uint64_t general_offsets[] = {0};
static const uint64_t one_offsets[] = {64};
static const uint64_t three_offsets[] = {128};

const omlc_model_info __omlc_info = {
    .abi_version = OMLC_ABI_VERSION,
    .num_inputs = 1,
    .num_outputs = 1,
    .inputs = general_io,
    .outputs = general_out,
    .num_weights = 1,
    .weight_offsets = general_offsets,
    .weights_size = sizeof blob,
    .weights_blob = (const uint8_t *)&blob,
};

#define VARIANT_INFO(io, out, offsets)                                                     \
    {                                                                                      \
        .abi_version = OMLC_ABI_VERSION, .num_inputs = 1, .num_outputs = 1, .inputs = io, \
        .outputs = out, .num_weights = 1, .weight_offsets = offsets,                       \
    }
static const omlc_model_info one_info = VARIANT_INFO(one_io, one_out, one_offsets);
static const omlc_model_info three_info = VARIANT_INFO(three_io, three_out, three_offsets);

static int32_t run_tagged(const omlc_tensor *in, omlc_tensor *out, const void *const *weights,
                          omlc_rt *rt, float tag) {
    int64_t n = in[0].shape[0];
    const float *x = in[0].data, *w = weights[0];
    if (!out[0].data)
        out[0].data = omlc_rt_alloc(rt, (uint64_t)(n * 2) * 4, 64);
    if (!out[0].data)
        return OMLC_ERR_ALLOC;
    out[0].shape[0] = n;
    out[0].shape[1] = 2;
    float *y = out[0].data;
    for (int64_t i = 0; i < n * 2; i++)
        y[i] = x[i] + w[i % 2] + tag;
    return OMLC_OK;
}

int32_t __omlc_main(const omlc_tensor *in, omlc_tensor *out, uint8_t *workspace,
                    const void *const *weights, omlc_rt *rt) {
    (void)workspace;
    return run_tagged(in, out, weights, rt, 0.0f);
}

static int32_t one_main(const omlc_tensor *in, omlc_tensor *out, uint8_t *workspace,
                        const void *const *weights, omlc_rt *rt) {
    (void)workspace;
    return run_tagged(in, out, weights, rt, 10.0f);
}

static int32_t three_main(const omlc_tensor *in, omlc_tensor *out, uint8_t *workspace,
                          const void *const *weights, omlc_rt *rt) {
    (void)workspace;
    return run_tagged(in, out, weights, rt, 20.0f);
}

/* The library's table: one model and its two size variants. */
static const omlc_segment_info segments[] = {{&__omlc_info, __omlc_main}};
static const omlc_segment_info variants[] = {{&one_info, one_main}, {&three_info, three_main}};
const omlc_program_info __omlc_program = {OMLC_ABI_VERSION, 1, segments, NULL, 0, 2, variants};
