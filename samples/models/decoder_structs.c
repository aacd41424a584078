/*
 * decoder_structs.c: a small decoder-only transformer written the way C inference
 * code is written (llama2.c's run.c is the model): a Config struct, a
 * TransformerWeights struct with per-layer arrays of handles, a RunState
 * allocated once with a KV cache per layer, and init / forward / free
 * functions that take the structs by pointer.  Greedy decoding for SEQ
 * positions.  Sizes are small so the program runs in milliseconds; the
 * analysis follows every handle through the structs, the arrays and the
 * pointers, and `tensorlint verify` agrees with the run on every row.
 *
 *   build/tools/tensorlint report samples/models/decoder_structs.c
 *   build/tools/tensorlint verify samples/models/decoder_structs.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif

#define MAX_LAYERS 4

typedef struct {
    int dim;        /* transformer dimension */
    int hidden_dim; /* for the feed-forward layers */
    int n_layers;
    int vocab_size;
    int seq_len;    /* positions the KV cache holds */
} Config;

typedef struct {
    tl_tensor *token_embedding; /* (vocab_size, dim) */
    tl_tensor *wq[MAX_LAYERS];  /* (dim, dim) per layer */
    tl_tensor *wk[MAX_LAYERS];
    tl_tensor *wv[MAX_LAYERS];
    tl_tensor *wo[MAX_LAYERS];
    tl_tensor *w1[MAX_LAYERS];  /* (hidden_dim, dim) */
    tl_tensor *w2[MAX_LAYERS];  /* (dim, hidden_dim) */
    tl_tensor *wcls;            /* (vocab_size, dim) */
} TransformerWeights;

typedef struct {
    tl_tensor *x;                         /* (1, dim) activation at the current position */
    tl_tensor *key_cache[MAX_LAYERS];     /* (seq_len, dim) */
    tl_tensor *value_cache[MAX_LAYERS];   /* (seq_len, dim) */
} RunState;

typedef struct {
    Config config;
    TransformerWeights weights;
    RunState state;
} Transformer;

static const Config default_config = {
    .dim = 64, .hidden_dim = 172, .n_layers = 2, .vocab_size = 96, .seq_len = 8,
};

static tl_tensor *matrix(int rows, int cols)
{
    return tl_randn(TL_SHAPE(rows, cols), TL_F32, DEVICE);
}

static void memory_map_weights(TransformerWeights *w, const Config *p)
{
    w->token_embedding = matrix(p->vocab_size, p->dim);
    for (int l = 0; l < p->n_layers; l++) {
        w->wq[l] = matrix(p->dim, p->dim);
        w->wk[l] = matrix(p->dim, p->dim);
        w->wv[l] = matrix(p->dim, p->dim);
        w->wo[l] = matrix(p->dim, p->dim);
        w->w1[l] = matrix(p->hidden_dim, p->dim);
        w->w2[l] = matrix(p->dim, p->hidden_dim);
    }
    w->wcls = matrix(p->vocab_size, p->dim);
}

static void malloc_run_state(RunState *s, const Config *p)
{
    s->x = tl_zeros(TL_SHAPE(1, p->dim), TL_F32, DEVICE);
    for (int l = 0; l < p->n_layers; l++) {
        s->key_cache[l] = tl_zeros(TL_SHAPE(p->seq_len, p->dim), TL_F32, DEVICE);
        s->value_cache[l] = tl_zeros(TL_SHAPE(p->seq_len, p->dim), TL_F32, DEVICE);
    }
}

static void free_run_state(RunState *s, const Config *p)
{
    tl_release(s->x);
    for (int l = 0; l < p->n_layers; l++) {
        tl_release(s->key_cache[l]);
        tl_release(s->value_cache[l]);
    }
}

static void free_weights(TransformerWeights *w, const Config *p)
{
    tl_release(w->token_embedding);
    for (int l = 0; l < p->n_layers; l++) {
        tl_release(w->wq[l]);
        tl_release(w->wk[l]);
        tl_release(w->wv[l]);
        tl_release(w->wo[l]);
        tl_release(w->w1[l]);
        tl_release(w->w2[l]);
    }
    tl_release(w->wcls);
}

/* y = x @ w^T, the linear layer of a (out, in) weight */
static tl_tensor *linear(tl_tensor *x, tl_tensor *w)
{
    tl_tensor *wt = tl_t(w);
    tl_tensor *y = tl_matmul(x, wt);
    tl_release(wt);
    return y;
}

/* One layer at position pos: attention over the cached keys and values,
 * then the feed-forward block; x is updated in place. */
static void layer_forward(Transformer *t, int l, int pos)
{
    TransformerWeights *w = &t->weights;
    RunState *s = &t->state;
    tl_tensor *q = linear(s->x, w->wq[l]);
    tl_tensor *k = linear(s->x, w->wk[l]);
    tl_tensor *v = linear(s->x, w->wv[l]);
    /* write this position's key and value into the cache rows */
    tl_tensor *krow = tl_narrow(s->key_cache[l], 0, pos, 1);
    tl_tensor *vrow = tl_narrow(s->value_cache[l], 0, pos, 1);
    tl_copy_(krow, k);
    tl_copy_(vrow, v);
    tl_release(krow);
    tl_release(vrow);
    /* attend over positions 0..pos */
    tl_tensor *keys = tl_narrow(s->key_cache[l], 0, 0, pos + 1);
    tl_tensor *values = tl_narrow(s->value_cache[l], 0, 0, pos + 1);
    tl_tensor *kt = tl_t(keys);
    tl_tensor *scores = tl_matmul(q, kt);
    tl_mul_scalar_(scores, 0.125);
    tl_tensor *att = tl_softmax(scores, 1);
    tl_tensor *ctx = tl_matmul(att, values);
    tl_tensor *o = linear(ctx, w->wo[l]);
    tl_add_(s->x, o);
    /* feed-forward */
    tl_tensor *h = linear(s->x, w->w1[l]);
    tl_tensor *a = tl_relu(h);
    tl_tensor *f = linear(a, w->w2[l]);
    tl_add_(s->x, f);
    tl_release(q);
    tl_release(k);
    tl_release(v);
    tl_release(kt);
    tl_release(keys);
    tl_release(values);
    tl_release(scores);
    tl_release(att);
    tl_release(ctx);
    tl_release(o);
    tl_release(h);
    tl_release(a);
    tl_release(f);
}

/* The logits of the next token after `token` at position pos. */
static tl_tensor *forward(Transformer *t, int token, int pos)
{
    Config *p = &t->config;
    tl_tensor *emb = tl_select(t->weights.token_embedding, 0, token);
    tl_tensor *row = tl_unsqueeze(emb, 0);
    tl_copy_(t->state.x, row);
    tl_release(row);
    tl_release(emb);
    for (int l = 0; l < p->n_layers; l++)
        layer_forward(t, l, pos);
    return linear(t->state.x, t->weights.wcls);
}

/* Greedy sampling: the index of the largest logit. */
static int argmax(tl_tensor *logits, int n)
{
    int best = 0;
    double best_v = tl_get(logits, TL_SHAPE(0, 0));
    for (int i = 1; i < n; i++) {
        double v = tl_get(logits, TL_SHAPE(0, i));
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
    return best;
}

static int build_transformer(Transformer *t)
{
    t->config = default_config;
    if (t->config.n_layers > MAX_LAYERS)
        return 1;
    memory_map_weights(&t->weights, &t->config);
    malloc_run_state(&t->state, &t->config);
    return 0;
}

static void free_transformer(Transformer *t)
{
    free_run_state(&t->state, &t->config);
    free_weights(&t->weights, &t->config);
}

int main(void)
{
    Transformer transformer;
    tl_manual_seed(7);
    if (build_transformer(&transformer))
        return 1;
    int token = 1;
    for (int pos = 0; pos < transformer.config.seq_len; pos++) {
        tl_tensor *logits = forward(&transformer, token, pos);
        token = argmax(logits, transformer.config.vocab_size);
        tl_release(logits);
    }
    printf("last token %d\n", token);
    free_transformer(&transformer);
    return 0;
}
