/*
 * A llama2.c-style decoder that keeps its weights and its KV cache in
 * per-layer arrays of tensors, as many C ports of such models do: the
 * Config is read from the checkpoint's header with fread, each layer's
 * weights are copied out of the file's buffer into tensors of their own
 * (tl_from_data) in a loop over config.n_layers, the per-layer caches are
 * allocated in another, and everything is released in loops at the end.
 * Each of `steps` tokens runs every layer (RMSNorm, one-head causal
 * attention over the positions so far, SwiGLU) and picks the next token
 * greedily.
 *
 *     python3 samples/checkpoint/make_checkpoint.py model.bin 64 176 2 1 128 32
 *     tensorlint report samples/checkpoint/decoder_layers.c
 *     tensorlint verify --bind config.dim=64 ... --arg=model.bin --arg=12 \
 *         samples/checkpoint/decoder_layers.c
 *
 * Every array filled in a loop is a run of alike elements whose count is
 * config.n_layers (docs/symbolic.md, "Arrays filled at the counter"), so
 * every size and total is a formula in the header's fields and steps.
 */
// bind: config.dim config.hidden_dim config.n_layers config.vocab_size config.seq_len steps
// values: 16 40 1 12 3 1 | 32 88 2 37 8 5 | 48 16 3 23 13 13
// setup: samples/checkpoint/make_checkpoint.py {file} config.dim config.hidden_dim config.n_layers 1 config.vocab_size config.seq_len
// args: {file} steps
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

typedef struct Config {
    int dim;        /* transformer width */
    int hidden_dim; /* FFN width */
    int n_layers;
    int n_heads;
    int n_kv_heads;
    int vocab_size;
    int seq_len;    /* the longest sequence the KV cache holds */
} Config;

typedef struct Layer {     /* one layer's weights, each a tensor of its own */
    tl_tensor **rms_att;   /* (dim,) */
    tl_tensor **wq, **wk, **wv, **wo;  /* (dim, dim), (out, in) */
    tl_tensor **rms_ffn;   /* (dim,) */
    tl_tensor **w1, **w3;  /* (hidden_dim, dim) */
    tl_tensor **w2;        /* (dim, hidden_dim) */
} Layers;

typedef struct Cache {
    tl_tensor **key;       /* (seq_len, dim) per layer */
    tl_tensor **value;
} Cache;

static tl_tensor **table(int n) { return malloc(sizeof(tl_tensor *) * (size_t)n); }

/* Copy layer l's (rows, cols) matrix out of the file's block of all layers' matrices. */
static tl_tensor *matrix_of(const float *block, int l, int rows, int cols)
{
    return tl_from_data(block + (long)l * rows * cols, TL_SHAPE(rows, cols), TL_F32, TL_CPU);
}

/* The weights, in llama2.c's order in the buffer, one tensor per layer and kind. */
static void load_layers(Layers *w, const float *p, const Config *c)
{
    int dim = c->dim, hidden = c->hidden_dim, n = c->n_layers;
    const float *att = p, *q = att + (long)n * dim, *k = q + (long)n * dim * dim;
    const float *v = k + (long)n * dim * dim, *o = v + (long)n * dim * dim;
    const float *ffn = o + (long)n * dim * dim, *f1 = ffn + (long)n * dim;
    const float *f2 = f1 + (long)n * hidden * dim, *f3 = f2 + (long)n * dim * hidden;
    w->rms_att = table(n);
    w->wq = table(n);
    w->wk = table(n);
    w->wv = table(n);
    w->wo = table(n);
    w->rms_ffn = table(n);
    w->w1 = table(n);
    w->w2 = table(n);
    w->w3 = table(n);
    for (int l = 0; l < n; l++) {
        w->rms_att[l] = tl_from_data(att + (long)l * dim, TL_SHAPE(dim), TL_F32, TL_CPU);
        w->wq[l] = matrix_of(q, l, dim, dim);
        w->wk[l] = matrix_of(k, l, dim, dim);
        w->wv[l] = matrix_of(v, l, dim, dim);
        w->wo[l] = matrix_of(o, l, dim, dim);
        w->rms_ffn[l] = tl_from_data(ffn + (long)l * dim, TL_SHAPE(dim), TL_F32, TL_CPU);
        w->w1[l] = matrix_of(f1, l, hidden, dim);
        w->w2[l] = matrix_of(f2, l, dim, hidden);
        w->w3[l] = matrix_of(f3, l, hidden, dim);
    }
}

static void free_layers(Layers *w, int n)
{
    for (int l = 0; l < n; l++) {
        tl_release(w->rms_att[l]);
        tl_release(w->wq[l]);
        tl_release(w->wk[l]);
        tl_release(w->wv[l]);
        tl_release(w->wo[l]);
        tl_release(w->rms_ffn[l]);
        tl_release(w->w1[l]);
        tl_release(w->w2[l]);
        tl_release(w->w3[l]);
    }
    free(w->rms_att);
    free(w->wq);
    free(w->wk);
    free(w->wv);
    free(w->wo);
    free(w->rms_ffn);
    free(w->w1);
    free(w->w2);
    free(w->w3);
}

/* y = x @ w^T: the linear layer of an (out, in) weight, for x of (1, in). */
static tl_tensor *linear(tl_tensor *x, tl_tensor *w)
{
    tl_tensor *wt = tl_t(w);
    tl_tensor *y = tl_matmul(x, wt);
    tl_release(wt);
    return y;
}

/* x / sqrt(mean(x^2) + eps) * g, for x of (1, dim). */
static tl_tensor *rmsnorm(tl_tensor *x, tl_tensor *g)
{
    tl_tensor *x2 = tl_mul(x, x);
    tl_tensor *ms = tl_mean(x2, 1, true);
    tl_add_scalar_(ms, 1e-5);
    tl_tensor *r = tl_rsqrt(ms);
    tl_tensor *xn = tl_mul(x, r);
    tl_tensor *y = tl_mul(xn, g);
    tl_release(x2);
    tl_release(ms);
    tl_release(r);
    tl_release(xn);
    return y;
}

/* One layer at position pos: x (1, dim) is updated in place. */
static void layer(tl_tensor *x, const Layers *w, const Cache *c, int l, int pos)
{
    tl_tensor *h = rmsnorm(x, w->rms_att[l]);
    tl_tensor *q = linear(h, w->wq[l]);
    tl_tensor *k = linear(h, w->wk[l]);
    tl_tensor *v = linear(h, w->wv[l]);
    tl_tensor *krow = tl_narrow(c->key[l], 0, pos, 1);
    tl_tensor *vrow = tl_narrow(c->value[l], 0, pos, 1);
    tl_copy_(krow, k);
    tl_copy_(vrow, v);
    tl_tensor *keys = tl_narrow(c->key[l], 0, 0, pos + 1);   /* positions 0..pos */
    tl_tensor *values = tl_narrow(c->value[l], 0, 0, pos + 1);
    tl_tensor *kt = tl_t(keys);
    tl_tensor *scores = tl_matmul(q, kt);                     /* (1, pos + 1) */
    tl_mul_scalar_(scores, 0.125);
    tl_tensor *att = tl_softmax(scores, 1);
    tl_tensor *ctx = tl_matmul(att, values);
    tl_tensor *o = linear(ctx, w->wo[l]);
    tl_add_(x, o);
    tl_tensor *h2 = rmsnorm(x, w->rms_ffn[l]);
    tl_tensor *a = linear(h2, w->w1[l]);
    tl_tensor *b = linear(h2, w->w3[l]);
    tl_tensor *g = tl_silu(a);
    tl_mul_(g, b);                                            /* SwiGLU */
    tl_tensor *f = linear(g, w->w2[l]);
    tl_add_(x, f);
    tl_release(h);
    tl_release(q);
    tl_release(k);
    tl_release(v);
    tl_release(krow);
    tl_release(vrow);
    tl_release(keys);
    tl_release(values);
    tl_release(kt);
    tl_release(scores);
    tl_release(att);
    tl_release(ctx);
    tl_release(o);
    tl_release(h2);
    tl_release(a);
    tl_release(b);
    tl_release(g);
    tl_release(f);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: decoder_layers CHECKPOINT STEPS\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1) {
        fprintf(stderr, "%s: no header\n", argv[1]);
        fclose(f);
        return 1;
    }
    int steps = atoi(argv[2]);
    if (steps <= 0 || steps > config.seq_len) /* llama2.c's clamp: min(steps, seq_len) */
        steps = config.seq_len;
    int dim = config.dim, hidden = config.hidden_dim, n = config.n_layers;
    int vocab = config.vocab_size, seq = config.seq_len;
    long n_weights = (long)vocab * dim + 2L * n * dim + 4L * n * dim * dim +
                     3L * n * hidden * dim + dim;
    float *buf = malloc(sizeof *buf * (size_t)n_weights);
    if (!buf || fread(buf, sizeof *buf, (size_t)n_weights, f) != (size_t)n_weights) {
        fprintf(stderr, "%s: short checkpoint\n", argv[1]);
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);

    tl_tensor *emb = tl_from_data(buf, TL_SHAPE(vocab, dim), TL_F32, TL_CPU);
    Layers w;
    load_layers(&w, buf + (long)vocab * dim, &config);
    tl_tensor *rms_final = tl_from_data(buf + n_weights - dim, TL_SHAPE(dim), TL_F32, TL_CPU);
    free(buf); /* the tensors hold copies */

    Cache cache = {table(n), table(n)};
    for (int l = 0; l < n; l++) {
        cache.key[l] = tl_zeros(TL_SHAPE(seq, dim), TL_F32, TL_CPU);
        cache.value[l] = tl_zeros(TL_SHAPE(seq, dim), TL_F32, TL_CPU);
    }
    tl_tensor *x = tl_zeros(TL_SHAPE(1, dim), TL_F32, TL_CPU);

    tl_tensor *token = tl_full(TL_SHAPE(1), 1.0, TL_I64, TL_CPU); /* BOS */
    printf("tokens:");
    for (int pos = 0; pos < steps; pos++) {
        tl_tensor *row = tl_index_select(emb, 0, token);     /* (1, dim) */
        tl_copy_(x, row);
        tl_release(row);
        for (int l = 0; l < n; l++)
            layer(x, &w, &cache, l, pos);
        tl_tensor *xf = rmsnorm(x, rms_final);
        tl_tensor *logits = linear(xf, emb);                  /* tied output weights */
        tl_tensor *best = tl_argmax(logits, 1, false);       /* (1,): the next token */
        printf(" %lld", (long long)tl_get(best, TL_SHAPE(0)));
        tl_release(token);
        token = best;
        tl_release(logits);
        tl_release(xf);
    }
    printf("\n");

    tl_release(token);
    tl_release(x);
    for (int l = 0; l < n; l++) {
        tl_release(cache.key[l]);
        tl_release(cache.value[l]);
    }
    free(cache.key);
    free(cache.value);
    free_layers(&w, n);
    tl_release(rms_final);
    tl_release(emb);
    return 0;
}
