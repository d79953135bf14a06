/*
 * Loads AOT-style libraries (omlc_rt.c + a hand-written model) with dlopen
 * and checks the public API: model description, results, validation
 * messages, model errors, side weights files, concurrent runs, two models
 * in one process, and the thread pool's coverage.
 *
 *   driver AFFINE_SO AFFINE_FILE_SO AFFINE_MISSING_SO COVER_SO VARIANTS_SO
 *
 * AFFINE_FILE_SO reads its weights from affine_file.weights next to it,
 * which this driver writes; AFFINE_MISSING_SO names a file that does not
 * exist. Prints every failed check and exits 1 if there was one.
 */
#include "omlc_rt.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        __atomic_fetch_add(&checks, 1, __ATOMIC_RELAXED);                                \
        if (!(cond)) {                                                                   \
            __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
        }                                                                                \
    } while (0)

/* The public API of one loaded library. */
typedef struct api {
    const char *path;
    const omlc_model_info *(*info)(void);
    omlc_session *(*create)(int32_t);
    int32_t (*run)(omlc_session *, const omlc_tensor *, omlc_tensor *);
    const char *(*last_error)(const omlc_session *);
    const char *(*global_error)(void);
    void (*free_data)(void *);
    void (*destroy)(omlc_session *);
} api;

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "missing symbol %s: %s\n", name, dlerror());
        exit(2);
    }
    return p;
}

static api load(const char *path) {
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        exit(2);
    }
    /* Only the public API is exported. */
    CHECK(dlsym(lib, "__omlc_main") == NULL, "%s exports __omlc_main", path);
    CHECK(dlsym(lib, "omlc_rt_parallel_for") == NULL, "%s exports the runtime", path);
    api a = {.path = path};
    *(void **)&a.info = sym(lib, "omlc_model_info_get");
    *(void **)&a.create = sym(lib, "omlc_session_create");
    *(void **)&a.run = sym(lib, "omlc_session_run");
    *(void **)&a.last_error = sym(lib, "omlc_session_last_error");
    *(void **)&a.global_error = sym(lib, "omlc_last_error");
    *(void **)&a.free_data = sym(lib, "omlc_free");
    *(void **)&a.destroy = sym(lib, "omlc_session_destroy");
    return a;
}

/* ---- The affine model ----------------------------------------------------- */

typedef struct weights {
    float w[3], c;
} weights;

static const weights EMBEDDED = {{0.5f, -1.0f, 2.0f}, 0.25f};
static const weights IN_FILE = {{10.0f, 20.0f, 30.0f}, -100.0f};

/* One run's inputs, outputs and expected results. */
typedef struct affine_case {
    int64_t n, in_shape[2], sum_shape[2], pos_shape[1];
    float *a, *b, *sum, total;
    int64_t *pos, count;
    omlc_tensor in[2], out[3];
    float total_out;
} affine_case;

static void affine_init(affine_case *t, int64_t n, float seed, const weights *w) {
    memset(t, 0, sizeof *t);
    int64_t len = n * 3;
    t->n = n;
    t->a = malloc((size_t)(len + 1) * sizeof(float));
    t->b = malloc((size_t)(len + 1) * sizeof(float));
    t->sum = malloc((size_t)(len + 1) * sizeof(float));
    t->pos = malloc((size_t)(len + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < len; i++) {
        t->a[i] = sinf((float)i * 0.37f + seed);
        t->b[i] = cosf((float)i * 0.11f - seed) * 0.5f;
        t->sum[i] = t->a[i] + t->b[i] + w->w[i % 3] + w->c;
        t->total += t->sum[i];
        if (t->sum[i] > 0)
            t->pos[t->count++] = i;
    }
    t->in_shape[0] = n;
    t->in_shape[1] = 3;
    t->in[0] = (omlc_tensor){t->a, t->in_shape, 2, 1};
    t->in[1] = (omlc_tensor){t->b, t->in_shape, 2, 1};
    t->out[0] = (omlc_tensor){NULL, t->sum_shape, 0, 0};
    t->out[1] = (omlc_tensor){&t->total_out, NULL, 0, 0};
    t->out[2] = (omlc_tensor){NULL, t->pos_shape, 0, 0};
}

/* Frees the outputs the run allocated and the case's buffers. */
static void affine_free(const api *api, affine_case *t, int sum_given) {
    if (!sum_given)
        api->free_data(t->out[0].data);
    api->free_data(t->out[2].data);
    free(t->a);
    free(t->b);
    free(t->sum);
    free(t->pos);
}

/* Checks a successful run's outputs; returns the number of mismatches. */
static int affine_check(const affine_case *t) {
    int bad = 0;
    const omlc_tensor *o = t->out;
    bad += o[0].rank != 2 || o[0].dtype != 1 || o[0].shape[0] != t->n || o[0].shape[1] != 3;
    bad += o[1].rank != 0 || o[1].dtype != 1 || t->total_out != t->total;
    bad += o[2].rank != 1 || o[2].dtype != 7 || o[2].shape[0] != t->count;
    if (bad)
        return bad;
    bad += memcmp(o[0].data, t->sum, (size_t)t->n * 3 * sizeof(float)) != 0;
    bad += memcmp(o[2].data, t->pos, (size_t)t->count * sizeof(int64_t)) != 0;
    bad += (uintptr_t)o[0].data % 64 != 0 || (uintptr_t)o[2].data % 64 != 0;
    return bad;
}

static void check_info(const api *api) {
    const omlc_model_info *info = api->info();
    CHECK(info->abi_version == OMLC_ABI_VERSION && info->num_inputs == 2 && info->num_outputs == 3, "counts");
    CHECK(strcmp(info->inputs[1].name, "b") == 0, "input name %s", info->inputs[1].name);
    CHECK(info->inputs[0].dims[0] == -1 && info->inputs[0].dims[1] == 3, "dims");
    CHECK(strcmp(info->inputs[0].dim_params[0], "N") == 0, "dim_param");
    CHECK(info->inputs[0].dim_params[1] == NULL, "static dim has no dim_param");
    CHECK(info->outputs[1].rank == 0 && strcmp(info->outputs[1].name, "total") == 0, "scalar");
    CHECK(strcmp(info->outputs[2].dim_params[0], "K") == 0, "data-dependent dim_param");
}

static void check_runs(const api *api, const weights *w) {
    int32_t threads[] = {1, 2, 4};
    int64_t sizes[] = {0, 1, 5, 100};
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        omlc_session *s = api->create(threads[i]);
        CHECK(s != NULL, "create: %s", api->global_error());
        if (!s)
            return;
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
            affine_case t;
            affine_init(&t, sizes[j], 0.25f, w);
            int32_t rc = api->run(s, t.in, t.out);
            CHECK(rc == OMLC_OK, "run: %s", api->last_error(s));
            CHECK(rc != OMLC_OK || affine_check(&t) == 0, "%d threads, n = %lld",
                  (int)threads[i], (long long)sizes[j]);
            CHECK(strcmp(api->last_error(s), "") == 0, "error after success");
            affine_free(api, &t, 0);
        }
        api->destroy(s);
    }
}

/* Runs with one thing broken; checks the code, message and that outputs
 * given as NULL are NULL again. */
static void expect_error(const api *api, omlc_session *s, affine_case *t, int32_t code,
                         const char *message) {
    int32_t rc = api->run(s, t->in, t->out);
    CHECK(rc == code, "rc %d, expected %d (%s)", (int)rc, (int)code, api->last_error(s));
    CHECK(strcmp(api->last_error(s), message) == 0, "message \"%s\", expected \"%s\"",
          api->last_error(s), message);
    CHECK(t->out[0].data == NULL && t->out[2].data == NULL, "outputs not reset");
}

static void check_errors(const api *api) {
    omlc_session *s = api->create(2);
    affine_case t;

    affine_init(&t, 2, 0.0f, &EMBEDDED);
    t.in[1].dtype = 7;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT,
                 "input \"b\": expected element type f32, got i64");
    t.in[1].dtype = 99;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT,
                 "input \"b\": expected element type f32, got dtype 99");
    t.in[1].dtype = 1;
    t.in[0].rank = 1;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT, "input \"a\": expected rank 2, got 1");
    t.in[0].rank = 2;

    int64_t wide[2] = {2, 4}, other_n[2] = {5, 3}, negative[2] = {-1, 3};
    t.in[0].shape = wide;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT, "input \"a\": dim 1 must be 3, got 4");
    t.in[0].shape = negative;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT, "input \"a\": dim 0 is negative (-1)");
    t.in[0].shape = t.in_shape;
    t.in[1].shape = other_n;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT,
                 "input \"b\": dim 0 (\"N\") is 5, but input \"a\" dim 0 bound \"N\" to 2");
    t.in[1].shape = t.in_shape;
    t.in[1].data = NULL;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT, "input \"b\": data is NULL");
    t.in[1].data = (char *)t.b + 2;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT,
                 "input \"b\": data is not aligned to its 4-byte elements");
    t.in[1].data = t.b;

    t.out[0].shape = NULL;
    expect_error(api, s, &t, OMLC_ERR_INVALID_ARGUMENT,
                 "output \"sum\": shape is NULL (it needs 2 entries)");
    t.out[0].shape = t.sum_shape;
    int64_t buf[8];
    t.out[2].data = buf;
    int32_t rc = api->run(s, t.in, t.out);
    CHECK(rc == OMLC_ERR_INVALID_ARGUMENT && t.out[2].data == buf, "rc %d", (int)rc);
    CHECK(strcmp(api->last_error(s), "output \"pos\": its shape depends on the input values; "
                                     "pass data = NULL") == 0,
          "%s", api->last_error(s));
    CHECK(t.out[0].data == NULL, "sum allocated before a failed run was not freed");
    t.out[2].data = NULL;
    t.out[0].data = (char *)buf + 1;
    rc = api->run(s, t.in, t.out);
    CHECK(rc == OMLC_ERR_INVALID_ARGUMENT, "rc %d", (int)rc);
    CHECK(strcmp(api->last_error(s), "output \"sum\": data is not aligned to its 4-byte "
                                     "elements") == 0,
          "%s", api->last_error(s));
    t.out[0].data = NULL;

    /* The model fails after allocating `pos`: the run frees it. */
    t.a[0] = NAN;
    expect_error(api, s, &t, OMLC_ERR_UNSUPPORTED,
                 "model failed: OMLC_ERR_UNSUPPORTED (5): the input values need something the "
                 "compiled code lacks");
    affine_free(api, &t, 0);

    /* A caller buffer for an output whose shape the inputs determine. */
    affine_init(&t, 3, 1.0f, &EMBEDDED);
    float given[9];
    t.out[0].data = given;
    rc = api->run(s, t.in, t.out);
    CHECK(rc == OMLC_OK && t.out[0].data == given, "caller buffer: %s", api->last_error(s));
    CHECK(rc != OMLC_OK || memcmp(given, t.sum, sizeof given) == 0, "caller buffer values");
    affine_free(api, &t, 1);

    CHECK(api->run(NULL, t.in, t.out) == OMLC_ERR_INVALID_ARGUMENT, "NULL session");
    CHECK(strcmp(api->global_error(), "session is NULL") == 0, "%s", api->global_error());
    api->destroy(s);
}

/* ---- Concurrency ------------------------------------------------------- */

typedef struct worker_arg {
    const api *api;
    omlc_session *s;
    int id;
    int bad;
} worker_arg;

static void *affine_worker(void *p) {
    worker_arg *w = p;
    for (int i = 0; i < 100; i++) {
        affine_case t;
        affine_init(&t, 1 + (w->id * 7 + i * 3) % 50, (float)w->id + (float)i * 0.01f, &EMBEDDED);
        if (w->api->run(w->s, t.in, t.out) != OMLC_OK || affine_check(&t) != 0)
            w->bad++;
        affine_free(w->api, &t, 0);
    }
    return NULL;
}

static void check_concurrent(const api *api) {
    omlc_session *s = api->create(3);
    enum { N = 6 };
    pthread_t th[N];
    worker_arg args[N];
    for (int i = 0; i < N; i++) {
        args[i] = (worker_arg){api, s, i, 0};
        pthread_create(&th[i], NULL, affine_worker, &args[i]);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        CHECK(args[i].bad == 0, "thread %d: %d bad runs", i, args[i].bad);
    }
    api->destroy(s);
}

/* ---- Side weights file, and two models in one process ------------------- */

static void write_weights(const char *lib_path) {
    char path[4096];
    const char *slash = strrchr(lib_path, '/');
    snprintf(path, sizeof path, "%.*s/affine_file.weights", slash ? (int)(slash - lib_path) : 1,
             slash ? lib_path : ".");
    float blob[32] = {0};
    memcpy(blob, IN_FILE.w, sizeof IN_FILE.w);
    blob[16] = IN_FILE.c;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(blob, sizeof blob, 1, f) != 1 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(2);
    }
}

static void check_two_models(const api *embedded, const api *in_file) {
    omlc_session *a = embedded->create(2), *b = in_file->create(2);
    CHECK(a && b, "create: %s", in_file->global_error());
    if (!a || !b)
        return;
    for (int i = 0; i < 3; i++) {
        affine_case ta, tb;
        affine_init(&ta, 4, (float)i, &EMBEDDED);
        affine_init(&tb, 4, (float)i, &IN_FILE);
        CHECK(embedded->run(a, ta.in, ta.out) == OMLC_OK && affine_check(&ta) == 0,
              "embedded weights");
        CHECK(in_file->run(b, tb.in, tb.out) == OMLC_OK && affine_check(&tb) == 0,
              "file weights: %s", in_file->last_error(b));
        affine_free(embedded, &ta, 0);
        affine_free(in_file, &tb, 0);
    }
    embedded->destroy(a);
    in_file->destroy(b);
}

static void check_missing_file(const api *api) {
    omlc_session *s = api->create(1);
    CHECK(s == NULL, "created a session without its weights file");
    const char *e = api->global_error();
    CHECK(strstr(e, "cannot open weights file ") == e && strstr(e, "/missing.weights: "),
          "%s", e);
}

/* ---- Size variants ------------------------------------------------------- */

/* Runs the variants model at batch `n`; the tag its output shows (which
 * code ran: 0 general, 10 and 20 the variants), or -1 on failure. */
static float variant_tag(const api *api, omlc_session *s, int64_t n) {
    int64_t shape[2] = {n, 2}, out_shape[2];
    float x[16];
    for (int64_t i = 0; i < n * 2; i++)
        x[i] = (float)i * 0.5f;
    omlc_tensor in = {x, shape, 2, 1}, out = {NULL, out_shape, 0, 0};
    if (api->run(s, &in, &out) != OMLC_OK)
        return -1.0f;
    float tag = -1.0f;
    const float *y = out.data;
    int ok = out.rank == 2 && out_shape[0] == n && out_shape[1] == 2;
    for (int64_t i = 0; ok && i < n * 2; i++) {
        float t = y[i] - x[i] - (float)(1 + i % 2);
        ok = i == 0 ? 1 : t == tag;
        tag = t;
    }
    api->free_data(out.data);
    return ok ? tag : -1.0f;
}

static void check_variants(const api *api, const char *path) {
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const omlc_program_info *(*program)(void) = NULL;
    *(void **)&program = sym(lib, "omlc_program_get");
    CHECK(program()->num_variants == 2, "%d variants", (int)program()->num_variants);
    for (int32_t threads = 1; threads <= 2; threads++) {
        omlc_session *s = api->create(threads);
        CHECK(s != NULL, "%s", api->global_error());
        if (!s)
            return;
        /* Each run takes the first variant for its sizes, else the general code. */
        int64_t sizes[] = {1, 2, 3, 5, 3, 1};
        float tags[] = {10, 0, 20, 0, 20, 10};
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            float tag = variant_tag(api, s, sizes[k]);
            CHECK(tag == tags[k], "N = %lld ran code with tag %g: %s", (long long)sizes[k],
                  (double)tag, api->last_error(s));
        }
        /* Inputs are validated against the general code's description. */
        int64_t shape[2] = {1, 3}, out_shape[2];
        float x[3] = {0};
        omlc_tensor in = {x, shape, 2, 1}, out = {NULL, out_shape, 0, 0};
        CHECK(api->run(s, &in, &out) == OMLC_ERR_INVALID_ARGUMENT &&
                  strcmp(api->last_error(s), "input \"x\": dim 1 must be 2, got 3") == 0,
              "%s", api->last_error(s));
        api->destroy(s);
    }
    dlclose(lib);
}

/* ---- The pool ------------------------------------------------------------ */

static int cover_run(const api *api, omlc_session *s, int64_t rows, int64_t cols) {
    int64_t shape[2] = {rows, cols}, out_shape[2];
    size_t cells = (size_t)(rows * cols);
    uint8_t *x = calloc(cells + 1, 1);
    omlc_tensor in = {x, shape, 2, 2}, out = {NULL, out_shape, 0, 0};
    int bad = api->run(s, &in, &out) != OMLC_OK;
    for (size_t i = 0; !bad && i < cells; i++)
        bad = ((int32_t *)out.data)[i] != 1;
    api->free_data(out.data);
    free(x);
    return bad;
}

static void *cover_worker(void *p) {
    worker_arg *w = p;
    for (int i = 0; i < 30; i++)
        w->bad += cover_run(w->api, w->s, 20 + w->id, 30 + i);
    return NULL;
}

static void check_pool(const api *api) {
    int32_t threads[] = {1, 2, 3, 8};
    int64_t shapes[][2] = {{0, 5}, {7, 0}, {1, 1}, {3, 1000}, {1000, 3}, {37, 53}};
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        omlc_session *s = api->create(threads[i]);
        for (size_t j = 0; j < sizeof shapes / sizeof *shapes; j++)
            CHECK(cover_run(api, s, shapes[j][0], shapes[j][1]) == 0,
                  "%d threads, %lld x %lld: %s", (int)threads[i], (long long)shapes[j][0],
                  (long long)shapes[j][1], api->last_error(s));
        api->destroy(s);
    }
    /* Concurrent loops on one pool: one gets it, the others run inline. */
    omlc_session *s = api->create(3);
    enum { N = 4 };
    pthread_t th[N];
    worker_arg args[N];
    for (int i = 0; i < N; i++) {
        args[i] = (worker_arg){api, s, i, 0};
        pthread_create(&th[i], NULL, cover_worker, &args[i]);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        CHECK(args[i].bad == 0, "cover thread %d: %d bad runs", i, args[i].bad);
    }
    api->destroy(s);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr,
                "usage: %s AFFINE_SO AFFINE_FILE_SO AFFINE_MISSING_SO COVER_SO VARIANTS_SO\n",
                argv[0]);
        return 2;
    }
    api affine = load(argv[1]), affine_file = load(argv[2]), missing = load(argv[3]),
        cover = load(argv[4]), variants = load(argv[5]);
    check_info(&affine);
    check_runs(&affine, &EMBEDDED);
    check_errors(&affine);
    check_concurrent(&affine);
    write_weights(argv[2]);
    check_runs(&affine_file, &IN_FILE);
    check_two_models(&affine, &affine_file);
    check_missing_file(&missing);
    check_pool(&cover);
    check_variants(&variants, argv[5]);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
