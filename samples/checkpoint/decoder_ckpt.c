/*
 * A llama2.c-style decoder whose sizes are known only when it runs: the
 * model's Config is read from the checkpoint's header with fread, and the
 * weights from the rest of the file into one malloc'd buffer, which the
 * weight tensors view (tl_from_blob: nothing allocated).  The run state and
 * the KV cache are allocated once; each of `steps` tokens runs every layer
 * (RMSNorm, rotary embeddings, causal attention over the positions so far,
 * SwiGLU) and picks the next token greedily.
 *
 *     python3 samples/checkpoint/make_checkpoint.py model.bin 64 176 2 4 128 32
 *     tensorlint report samples/checkpoint/decoder_ckpt.c
 *     tensorlint report --bind config.dim=64 ... --bind steps=12 samples/checkpoint/decoder_ckpt.c
 *     tensorlint verify --bind ... --arg=model.bin --arg=12 samples/checkpoint/decoder_ckpt.c
 *
 * The report gives every size and total as a formula in config.dim,
 * config.hidden_dim, config.n_layers, config.n_heads, config.vocab_size,
 * config.seq_len and steps (docs/symbolic.md shows it).
 */
// bind: config.dim config.hidden_dim config.n_layers config.n_heads config.vocab_size config.seq_len steps
// values: 16 40 1 2 12 3 1 | 32 88 2 4 37 8 5 | 48 16 3 2 23 13 13
// setup: samples/checkpoint/make_checkpoint.py {file} config.dim config.hidden_dim config.n_layers config.n_heads config.vocab_size config.seq_len
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

/* out = x / sqrt(mean(x^2) + eps) * w, written into out. */
static void rmsnorm(tl_tensor *out, tl_tensor *x, tl_tensor *w)
{
    tl_tensor *x2 = tl_mul(x, x);
    tl_tensor *ms = tl_mean(x2, 0, true);
    tl_add_scalar_(ms, 1e-5);
    tl_tensor *r = tl_rsqrt(ms);
    tl_tensor *xn = tl_mul(x, r);
    tl_tensor *y = tl_mul(xn, w);
    tl_copy_(out, y);
    tl_release(x2);
    tl_release(ms);
    tl_release(r);
    tl_release(xn);
    tl_release(y);
}

/* Rotary embedding of t (dim,) in place: pair i of each head turns by pos * freqs[i]. */
static void rotate(tl_tensor *t, tl_tensor *cos_t, tl_tensor *sin_t, int n_heads, int head_size)
{
    tl_tensor *pairs = tl_view(t, TL_SHAPE(n_heads, head_size / 2, 2));
    tl_tensor *a = tl_select(pairs, -1, 0);
    tl_tensor *b = tl_select(pairs, -1, 1);
    tl_tensor *ac = tl_mul(a, cos_t);
    tl_tensor *bs = tl_mul(b, sin_t);
    tl_tensor *as = tl_mul(a, sin_t);
    tl_tensor *bc = tl_mul(b, cos_t);
    tl_tensor *ra = tl_sub(ac, bs);
    tl_tensor *rb = tl_add(as, bc);
    tl_tensor *rot = tl_stack(TL_LIST(ra, rb), -1);
    tl_copy_(pairs, rot);
    tl_release(pairs);
    tl_release(a);
    tl_release(b);
    tl_release(ac);
    tl_release(bs);
    tl_release(as);
    tl_release(bc);
    tl_release(ra);
    tl_release(rb);
    tl_release(rot);
}

/* Causal attention of q over the cached keys and values 0..pos, into out (dim,). */
static void attention(tl_tensor *out, tl_tensor *q, tl_tensor *kcache, tl_tensor *vcache,
                      int pos, int n_heads, int head_size)
{
    tl_tensor *qh = tl_view(q, TL_SHAPE(n_heads, 1, head_size));
    tl_tensor *kc = tl_narrow(kcache, 0, 0, pos + 1);
    tl_tensor *kv = tl_view(kc, TL_SHAPE(pos + 1, n_heads, head_size));
    tl_tensor *kt = tl_permute(kv, TL_DIMS(1, 2, 0));
    tl_tensor *scores = tl_matmul(qh, kt);
    tl_tensor *scaled = tl_mul_scalar(scores, 0.25);
    tl_tensor *att = tl_softmax(scaled, -1);
    tl_tensor *vc = tl_narrow(vcache, 0, 0, pos + 1);
    tl_tensor *vv = tl_view(vc, TL_SHAPE(pos + 1, n_heads, head_size));
    tl_tensor *vh = tl_permute(vv, TL_DIMS(1, 0, 2));
    tl_tensor *ctx = tl_matmul(att, vh);
    tl_tensor *flat = tl_view(ctx, TL_SHAPE(n_heads * head_size));
    tl_copy_(out, flat);
    tl_release(qh);
    tl_release(kc);
    tl_release(kv);
    tl_release(kt);
    tl_release(scores);
    tl_release(scaled);
    tl_release(att);
    tl_release(vc);
    tl_release(vv);
    tl_release(vh);
    tl_release(ctx);
    tl_release(flat);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: decoder_ckpt CHECKPOINT STEPS\n");
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
    int dim = config.dim, hidden = config.hidden_dim, layers = config.n_layers;
    int n_heads = config.n_heads, vocab = config.vocab_size, seq = config.seq_len;
    int head_size = dim / n_heads;
    long n_emb = (long)vocab * dim, n_norm = (long)layers * dim;
    long n_att = (long)layers * dim * dim, n_ffn = (long)layers * hidden * dim;
    long n_weights = n_emb + 2 * n_norm + 4 * n_att + 3 * n_ffn + dim;
    float *w = malloc(sizeof *w * (size_t)n_weights);
    if (!w || fread(w, sizeof *w, (size_t)n_weights, f) != (size_t)n_weights) {
        fprintf(stderr, "%s: short checkpoint\n", argv[1]);
        free(w);
        fclose(f);
        return 1;
    }
    fclose(f);

    /* the weights: views of the buffer, in llama2.c's order */
    float *p = w;
    tl_tensor *emb = tl_from_blob(p, TL_SHAPE(vocab, dim), TL_F32);
    p += n_emb;
    tl_tensor *rms_att = tl_from_blob(p, TL_SHAPE(layers, dim), TL_F32);
    p += n_norm;
    tl_tensor *wq = tl_from_blob(p, TL_SHAPE(layers, dim, dim), TL_F32);
    p += n_att;
    tl_tensor *wk = tl_from_blob(p, TL_SHAPE(layers, dim, dim), TL_F32);
    p += n_att;
    tl_tensor *wv = tl_from_blob(p, TL_SHAPE(layers, dim, dim), TL_F32);
    p += n_att;
    tl_tensor *wo = tl_from_blob(p, TL_SHAPE(layers, dim, dim), TL_F32);
    p += n_att;
    tl_tensor *rms_ffn = tl_from_blob(p, TL_SHAPE(layers, dim), TL_F32);
    p += n_norm;
    tl_tensor *w1 = tl_from_blob(p, TL_SHAPE(layers, hidden, dim), TL_F32);
    p += n_ffn;
    tl_tensor *w2 = tl_from_blob(p, TL_SHAPE(layers, dim, hidden), TL_F32);
    p += n_ffn;
    tl_tensor *w3 = tl_from_blob(p, TL_SHAPE(layers, hidden, dim), TL_F32);
    p += n_ffn;
    tl_tensor *rms_final = tl_from_blob(p, TL_SHAPE(dim), TL_F32);

    /* the run state and the KV cache, allocated once */
    tl_tensor *x = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU);
    tl_tensor *xb = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU);
    tl_tensor *xb2 = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU);
    tl_tensor *hb = tl_zeros(TL_SHAPE(hidden), TL_F32, TL_CPU);
    tl_tensor *hb2 = tl_zeros(TL_SHAPE(hidden), TL_F32, TL_CPU);
    tl_tensor *q = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU);
    tl_tensor *logits = tl_zeros(TL_SHAPE(vocab), TL_F32, TL_CPU);
    tl_tensor *key_cache = tl_zeros(TL_SHAPE(layers, seq, dim), TL_F32, TL_CPU);
    tl_tensor *value_cache = tl_zeros(TL_SHAPE(layers, seq, dim), TL_F32, TL_CPU);
    tl_tensor *token = tl_full(TL_SHAPE(1), 1.0, TL_I64, TL_CPU); /* BOS */
    tl_tensor *ramp = tl_arange(head_size / 2, TL_F32, TL_CPU);
    tl_tensor *expo = tl_mul_scalar(ramp, -2.0 * 9.210340371976184 / head_size); /* ln 10000 */
    tl_tensor *freqs = tl_exp(expo);
    tl_release(ramp);
    tl_release(expo);

    printf("tokens:");
    for (int pos = 0; pos < steps; pos++) {
        tl_tensor *row = tl_index_select(emb, 0, token);
        tl_tensor *row1 = tl_view(row, TL_SHAPE(dim));
        tl_copy_(x, row1);
        tl_release(row);
        tl_release(row1);
        tl_tensor *angle = tl_mul_scalar(freqs, (double)pos);
        tl_tensor *cos_t = tl_cos(angle);
        tl_tensor *sin_t = tl_sin(angle);
        for (int l = 0; l < layers; l++) {
            tl_tensor *kcache = tl_select(key_cache, 0, l);
            tl_tensor *vcache = tl_select(value_cache, 0, l);
            tl_tensor *k = tl_select(kcache, 0, pos);
            tl_tensor *v = tl_select(vcache, 0, pos);
            tl_tensor *g = tl_select(rms_att, 0, l);
            tl_tensor *wql = tl_select(wq, 0, l);
            tl_tensor *wkl = tl_select(wk, 0, l);
            tl_tensor *wvl = tl_select(wv, 0, l);
            tl_tensor *wol = tl_select(wo, 0, l);
            rmsnorm(xb, x, g);
            tl_matmul_out(q, wql, xb);
            tl_matmul_out(k, wkl, xb); /* straight into the cache */
            tl_matmul_out(v, wvl, xb);
            rotate(q, cos_t, sin_t, n_heads, head_size);
            rotate(k, cos_t, sin_t, n_heads, head_size);
            attention(xb, q, kcache, vcache, pos, n_heads, head_size);
            tl_matmul_out(xb2, wol, xb);
            tl_add_(x, xb2);

            tl_tensor *gf = tl_select(rms_ffn, 0, l);
            tl_tensor *w1l = tl_select(w1, 0, l);
            tl_tensor *w2l = tl_select(w2, 0, l);
            tl_tensor *w3l = tl_select(w3, 0, l);
            rmsnorm(xb, x, gf);
            tl_matmul_out(hb, w1l, xb);
            tl_matmul_out(hb2, w3l, xb);
            tl_tensor *act = tl_silu(hb);
            tl_mul_(act, hb2); /* SwiGLU */
            tl_matmul_out(xb, w2l, act);
            tl_add_(x, xb);
            tl_release(act);
            tl_release(kcache);
            tl_release(vcache);
            tl_release(k);
            tl_release(v);
            tl_release(g);
            tl_release(wql);
            tl_release(wkl);
            tl_release(wvl);
            tl_release(wol);
            tl_release(gf);
            tl_release(w1l);
            tl_release(w2l);
            tl_release(w3l);
        }
        rmsnorm(xb, x, rms_final);
        tl_matmul_out(logits, emb, xb); /* the classifier shares the embedding */
        tl_tensor *next = tl_argmax(logits, 0, true);
        printf(" %d", (int)tl_get(next, TL_SHAPE(0)));
        tl_copy_(token, next);
        tl_release(next);
        tl_release(angle);
        tl_release(cos_t);
        tl_release(sin_t);
    }
    printf("\n");

    tl_release(freqs);
    tl_release(token);
    tl_release(value_cache);
    tl_release(key_cache);
    tl_release(logits);
    tl_release(q);
    tl_release(hb2);
    tl_release(hb);
    tl_release(xb2);
    tl_release(xb);
    tl_release(x);
    tl_release(rms_final);
    tl_release(w3);
    tl_release(w2);
    tl_release(w1);
    tl_release(rms_ffn);
    tl_release(wo);
    tl_release(wv);
    tl_release(wk);
    tl_release(wq);
    tl_release(rms_att);
    tl_release(emb);
    free(w);
    return 0;
}
