/*
 * A C program using a compiled model's shared library the way an
 * application would: through the generated header and the public API only
 * (compiled against "model.h", linked with -l<model>).
 *
 * Usage: driver THREADS OUTDIR INPUT...
 *
 * Each INPUT file holds one tensor: int32 dtype, int32 rank, int64
 * dims[rank], then the raw element bytes. The run's outputs are written to
 * OUTDIR/output_K.bin in the same format. Exit codes: 0 success, 2 usage
 * or I/O error, 3 session creation failed, 4 the run failed (the message
 * on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* Bits per element of an ONNX dtype; 0 when not a v1 tensor type. */
static int dtype_bits(int32_t dtype) {
    switch (dtype) {
    case 2: case 3: case 9: case 17: case 18: case 19: case 20: return 8;
    case 4: case 5: case 10: case 16: return 16;
    case 1: case 6: case 12: return 32;
    case 7: case 11: case 13: case 14: return 64;
    case 15: return 128;
    case 21: case 22: case 23: return 4;
    case 24: case 25: return 2;
    default: return 0;
    }
}

static uint64_t tensor_bytes(int32_t dtype, int32_t rank, const int64_t *shape) {
    uint64_t n = 1;
    for (int32_t i = 0; i < rank; i++) n *= (uint64_t)shape[i];
    return (n * (uint64_t)dtype_bits(dtype) + 7) / 8;
}

static int read_tensor(const char *path, omlc_tensor *t) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return -1; }
    int32_t head[2];
    if (fread(head, sizeof head, 1, f) != 1 || head[1] < 0) goto bad;
    t->dtype = head[0];
    t->rank = head[1];
    t->shape = calloc((size_t)t->rank + 1, sizeof(int64_t));
    if (!t->shape || fread(t->shape, sizeof(int64_t), (size_t)t->rank, f) != (size_t)t->rank)
        goto bad;
    uint64_t bytes = tensor_bytes(t->dtype, t->rank, t->shape);
    t->data = malloc(bytes ? bytes : 1);
    if (!t->data || fread(t->data, 1, bytes, f) != bytes) goto bad;
    fclose(f);
    return 0;
bad:
    fprintf(stderr, "%s: not a tensor file\n", path);
    fclose(f);
    return -1;
}

static int write_tensor(const char *path, const omlc_tensor *t) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); return -1; }
    int32_t head[2] = {t->dtype, t->rank};
    uint64_t bytes = tensor_bytes(t->dtype, t->rank, t->shape);
    int ok = fwrite(head, sizeof head, 1, f) == 1 &&
             fwrite(t->shape, sizeof(int64_t), (size_t)t->rank, f) == (size_t)t->rank &&
             (bytes == 0 || fwrite(t->data, 1, bytes, f) == bytes);
    if (fclose(f) != 0 || !ok) { perror(path); return -1; }
    return 0;
}

int main(int argc, char **argv) {
    const omlc_model_info *info = omlc_model_info_get();
    if (!info) {
        /* A host program: the C API has no session for it, and says why. */
        omlc_session *s = omlc_session_create(1);
        fprintf(stderr, "session: %s\n", s ? "created for a host program" : omlc_last_error());
        return 3;
    }
    if (argc < 3 || argc - 3 != info->num_inputs) {
        fprintf(stderr, "usage: %s THREADS OUTDIR INPUT... (%d inputs)\n", argv[0],
                info->num_inputs);
        return 2;
    }
    omlc_session *s = omlc_session_create(atoi(argv[1]));
    if (!s) {
        fprintf(stderr, "session: %s\n", omlc_last_error());
        return 3;
    }
    omlc_tensor *in = calloc((size_t)info->num_inputs + 1, sizeof *in);
    omlc_tensor *out = calloc((size_t)info->num_outputs + 1, sizeof *out);
    if (!in || !out) return 2;
    for (int32_t i = 0; i < info->num_inputs; i++)
        if (read_tensor(argv[3 + i], &in[i]) != 0) return 2;
    for (int32_t i = 0; i < info->num_outputs; i++) {
        /* NULL data: the run allocates each output. */
        out[i].shape = calloc((size_t)info->outputs[i].rank + 1, sizeof(int64_t));
        if (!out[i].shape) return 2;
    }
    int32_t rc = omlc_session_run(s, in, out);
    if (rc != OMLC_OK) {
        fprintf(stderr, "run failed (%d): %s\n", rc, omlc_session_last_error(s));
        omlc_session_destroy(s);
        return 4;
    }
    int status = 0;
    for (int32_t i = 0; i < info->num_outputs; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/output_%d.bin", argv[2], (int)i);
        if (write_tensor(path, &out[i]) != 0) status = 2;
        omlc_free(out[i].data);
        free(out[i].shape);
    }
    for (int32_t i = 0; i < info->num_inputs; i++) {
        free(in[i].data);
        free(in[i].shape);
    }
    free(in);
    free(out);
    omlc_session_destroy(s);
    return status;
}
