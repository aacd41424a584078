/*
 * run.c: inference of a Llama 2 checkpoint in llama2.c's format (its run.c,
 * ported to the tensor API).  The program reads what llama2.c's run reads and
 * prints what it prints: the same token for token on the same checkpoint,
 * tokenizer, options and seed.
 *
 *     sample_llama2_run model.bin [-t temp] [-p topp] [-s seed] [-n steps]
 *                       [-i prompt] [-z tokenizer.bin] [-m generate|chat] [-y system]
 *
 * The checkpoint is memory-mapped; its header (seven ints) is read with
 * fread, and every weight is a tl_from_blob view of the mapping (nothing
 * copied).  The run state and the KV cache are allocated once.  Each token
 * runs llama2.c's forward pass: RMSNorm, the q/k/v products (k and v written
 * straight into the cache), rotary embeddings, attention of each head over
 * the positions so far (grouped heads share a key/value head), the output
 * product, SwiGLU, the classifier.  The tokenizer (tokenizer.bin: the
 * longest piece's length, then per token a score, a length and the bytes),
 * the BPE encoder, the decoder and the sampler (temperature, top-p, an
 * xorshift generator) are plain C on the host, as in llama2.c.
 */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tensorlint/tensor.h>

/* ---- the model ---- */

typedef struct Config {
    int dim;        /* transformer width */
    int hidden_dim; /* FFN width */
    int n_layers;
    int n_heads;    /* query heads */
    int n_kv_heads; /* key/value heads (fewer than n_heads: grouped heads) */
    int vocab_size; /* negative in the file: the classifier is not the embedding */
    int seq_len;    /* positions the KV cache holds */
} Config;

/* One layer's weights: views of the mapped checkpoint. */
typedef struct Layer {
    tl_tensor *rms_att, *rms_ffn;  /* (dim) */
    tl_tensor *wq, *wk, *wv, *wo;  /* (dim, dim), (kv_dim, dim) x2, (dim, dim) */
    tl_tensor *w1, *w2, *w3;       /* (hidden, dim), (dim, hidden), (hidden, dim) */
    tl_tensor *key_cache, *value_cache; /* (seq_len, kv_dim) rows of the run state */
} Layer;

typedef struct Transformer {
    Config config;
    int head_size, kv_dim, kv_mul;
    Layer *layers;
    tl_tensor *token_embedding_table; /* (vocab, dim) */
    tl_tensor *rms_final;             /* (dim) */
    tl_tensor *wcls;                  /* (vocab, dim): the embedding when shared */
    tl_tensor *stack[10];             /* the whole-model weight tensors the layers view */
    /* the run state, allocated once */
    tl_tensor *x, *xb, *xb2, *hb, *hb2, *q, *logits;
    tl_tensor *key_cache, *value_cache; /* (layers, seq_len, kv_dim) */
    tl_tensor *freq;                    /* (head_size / 2): llama2.c's RoPE frequencies */
    tl_tensor *swap;                    /* I64 {1, 0}: a pair's two values exchanged */
    void *map;                          /* the checkpoint's mapping */
    size_t map_bytes;
} Transformer;

static void die(const char *what)
{
    fprintf(stderr, "run: %s\n", what);
    exit(EXIT_FAILURE);
}

/* The header, read with fread as llama2.c does; the sizes must describe a model. */
static Config read_config(const char *path, size_t *file_bytes)
{
    Config c;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "run: couldn't open file %s\n", path);
        exit(EXIT_FAILURE);
    }
    if (fread(&c, sizeof c, 1, f) != 1)
        die("the checkpoint has no header");
    fseek(f, 0, SEEK_END);
    long end = ftell(f);
    fclose(f);
    *file_bytes = end > 0 ? (size_t)end : 0;
    if (c.dim <= 0 || c.hidden_dim <= 0 || c.n_layers <= 0 || c.n_heads <= 0 ||
        c.n_kv_heads <= 0 || c.vocab_size == 0 || c.seq_len <= 0 || c.dim % c.n_heads ||
        (c.dim / c.n_heads) % 2 || c.n_heads % c.n_kv_heads || abs(c.vocab_size) < 3)
        die("the checkpoint's header does not describe a model");
    return c;
}

/* The next n floats of the mapping, as a tensor of the given shape. */
static tl_tensor *take(float **p, long n, tl_ints shape)
{
    tl_tensor *t = tl_from_blob(*p, shape, TL_F32);
    *p += n;
    return t;
}

/* Views of the mapped weights in llama2.c's order (the two RoPE tables of
 * older checkpoints are skipped). */
static void map_weights(Transformer *t, float *p, int shared)
{
    Config *c = &t->config;
    long dim = c->dim, hid = c->hidden_dim, nl = c->n_layers, kv = t->kv_dim;
    long vocab = abs(c->vocab_size);
    t->token_embedding_table = take(&p, vocab * dim, TL_SHAPE(vocab, dim));
    t->stack[0] = take(&p, nl * dim, TL_SHAPE(nl, dim));
    t->stack[1] = take(&p, nl * dim * dim, TL_SHAPE(nl, dim, dim));
    t->stack[2] = take(&p, nl * kv * dim, TL_SHAPE(nl, kv, dim));
    t->stack[3] = take(&p, nl * kv * dim, TL_SHAPE(nl, kv, dim));
    t->stack[4] = take(&p, nl * dim * dim, TL_SHAPE(nl, dim, dim));
    t->stack[5] = take(&p, nl * dim, TL_SHAPE(nl, dim));
    t->stack[6] = take(&p, nl * hid * dim, TL_SHAPE(nl, hid, dim));
    t->stack[7] = take(&p, nl * dim * hid, TL_SHAPE(nl, dim, hid));
    t->stack[8] = take(&p, nl * hid * dim, TL_SHAPE(nl, hid, dim));
    t->rms_final = take(&p, dim, TL_SHAPE(dim));
    p += c->seq_len * t->head_size; /* freq_cis_real and freq_cis_imag */
    t->wcls = shared ? NULL : take(&p, vocab * dim, TL_SHAPE(vocab, dim));
    t->stack[9] = t->wcls;
    if (shared)
        t->wcls = t->token_embedding_table;
}

/* Floats the header's sizes need after the header (the classifier when not shared). */
static size_t weight_floats(const Config *c, int head_size, int kv_dim, int shared)
{
    size_t dim = c->dim, hid = c->hidden_dim, nl = c->n_layers, vocab = abs(c->vocab_size);
    size_t n = vocab * dim + 2 * nl * dim + nl * dim * (2 * dim + 2 * (size_t)kv_dim) +
               3 * nl * dim * hid + dim + (size_t)c->seq_len * head_size;
    return shared ? n : n + vocab * dim;
}

static void make_layers(Transformer *t)
{
    t->layers = calloc((size_t)t->config.n_layers, sizeof *t->layers);
    if (!t->layers)
        die("out of memory");
    for (int l = 0; l < t->config.n_layers; l++) {
        Layer *y = &t->layers[l];
        y->rms_att = tl_select(t->stack[0], 0, l);
        y->wq = tl_select(t->stack[1], 0, l);
        y->wk = tl_select(t->stack[2], 0, l);
        y->wv = tl_select(t->stack[3], 0, l);
        y->wo = tl_select(t->stack[4], 0, l);
        y->rms_ffn = tl_select(t->stack[5], 0, l);
        y->w1 = tl_select(t->stack[6], 0, l);
        y->w2 = tl_select(t->stack[7], 0, l);
        y->w3 = tl_select(t->stack[8], 0, l);
        y->key_cache = tl_select(t->key_cache, 0, l);
        y->value_cache = tl_select(t->value_cache, 0, l);
    }
}

/* llama2.c's frequencies, 1 / 10000^(2j / head_size), computed as it does. */
static tl_tensor *rope_frequencies(int head_size)
{
    int n = head_size / 2;
    float *f = malloc(sizeof *f * (size_t)n);
    if (!f)
        die("out of memory");
    for (int j = 0; j < n; j++)
        f[j] = 1.0f / powf(10000.0f, (float)(2 * j) / (float)head_size);
    tl_tensor *freq = tl_from_data(f, TL_SHAPE(n), TL_F32, TL_CPU);
    free(f);
    return freq;
}

static void malloc_run_state(Transformer *t)
{
    Config *c = &t->config;
    int vocab = abs(c->vocab_size);
    int64_t swap[2] = {1, 0};
    t->x = tl_zeros(TL_SHAPE(c->dim), TL_F32, TL_CPU);
    t->xb = tl_zeros(TL_SHAPE(c->dim), TL_F32, TL_CPU);
    t->xb2 = tl_zeros(TL_SHAPE(c->dim), TL_F32, TL_CPU);
    t->hb = tl_zeros(TL_SHAPE(c->hidden_dim), TL_F32, TL_CPU);
    t->hb2 = tl_zeros(TL_SHAPE(c->hidden_dim), TL_F32, TL_CPU);
    t->q = tl_zeros(TL_SHAPE(c->dim), TL_F32, TL_CPU);
    t->logits = tl_zeros(TL_SHAPE(vocab), TL_F32, TL_CPU);
    t->key_cache = tl_zeros(TL_SHAPE(c->n_layers, c->seq_len, t->kv_dim), TL_F32, TL_CPU);
    t->value_cache = tl_zeros(TL_SHAPE(c->n_layers, c->seq_len, t->kv_dim), TL_F32, TL_CPU);
    t->freq = rope_frequencies(t->head_size);
    t->swap = tl_from_data(swap, TL_SHAPE(2), TL_I64, TL_CPU);
}

static void build_transformer(Transformer *t, const char *path)
{
    size_t file_bytes;
    memset(t, 0, sizeof *t);
    t->config = read_config(path, &file_bytes);
    Config *c = &t->config;
    int shared = c->vocab_size > 0;
    t->head_size = c->dim / c->n_heads;
    t->kv_dim = c->dim * c->n_kv_heads / c->n_heads;
    t->kv_mul = c->n_heads / c->n_kv_heads;
    if (file_bytes < sizeof *c + sizeof(float) * weight_floats(c, t->head_size, t->kv_dim, shared))
        die("the checkpoint is shorter than its header's sizes");
    int fd = open(path, O_RDONLY);
    if (fd == -1)
        die("open failed");
    t->map = mmap(NULL, file_bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (t->map == MAP_FAILED)
        die("mmap failed");
    t->map_bytes = file_bytes;
    map_weights(t, (float *)t->map + sizeof *c / sizeof(float), shared);
    c->vocab_size = abs(c->vocab_size);
    malloc_run_state(t);
    make_layers(t);
}

static void free_transformer(Transformer *t)
{
    for (int l = 0; l < t->config.n_layers; l++) {
        Layer *y = &t->layers[l];
        tl_tensor *all[] = {y->rms_att, y->rms_ffn, y->wq, y->wk, y->wv, y->wo,
                            y->w1, y->w2, y->w3, y->key_cache, y->value_cache};
        for (size_t k = 0; k < sizeof all / sizeof *all; k++)
            tl_release(all[k]);
    }
    free(t->layers);
    tl_tensor *state[] = {t->x, t->xb, t->xb2, t->hb, t->hb2, t->q, t->logits, t->key_cache,
                          t->value_cache, t->freq, t->swap, t->token_embedding_table,
                          t->rms_final};
    for (size_t k = 0; k < sizeof state / sizeof *state; k++)
        tl_release(state[k]);
    for (int k = 0; k < 10; k++)
        tl_release(t->stack[k]);
    munmap(t->map, t->map_bytes);
}

/* ---- the forward pass ---- */

/* o = weight * (x / sqrt(mean(x^2) + 1e-5)); o may be x. */
static void rmsnorm(tl_tensor *o, tl_tensor *x, tl_tensor *weight)
{
    tl_tensor *x2 = tl_mul(x, x);
    tl_tensor *ms = tl_mean(x2, 0, true);
    tl_add_scalar_(ms, 1e-5);
    tl_tensor *ss = tl_rsqrt(ms);
    if (o != x)
        tl_copy_(o, x);
    tl_mul_(o, ss);
    tl_mul_(o, weight);
    tl_release(x2);
    tl_release(ms);
    tl_release(ss);
}

/* The rotation of every head's pairs of vec (n_heads * head_size) by the
 * angles of this position: (v0, v1) -> (v0 c - v1 s, v0 s + v1 c), as
 * vec * (c, c) + swap(vec) * (-s, s). */
static void rope(const Transformer *t, tl_tensor *vec, int n_heads, tl_tensor *cc, tl_tensor *ms)
{
    tl_tensor *pairs = tl_view(vec, TL_SHAPE(n_heads, t->head_size / 2, 2));
    tl_tensor *swapped = tl_index_select(pairs, 2, t->swap);
    tl_mul_(swapped, ms);
    tl_mul_(pairs, cc);
    tl_add_(pairs, swapped);
    tl_release(pairs);
    tl_release(swapped);
}

/* The position's (c, c) and (-s, s) tables, (head_size / 2, 2). */
static void rope_tables(const Transformer *t, int pos, tl_tensor **cc, tl_tensor **ms)
{
    tl_tensor *val = tl_mul_scalar(t->freq, (double)pos);
    tl_tensor *c = tl_cos(val);
    tl_tensor *s = tl_sin(val);
    tl_tensor *ns = tl_neg(s);
    *cc = tl_stack(TL_LIST(c, c), -1);
    *ms = tl_stack(TL_LIST(ns, s), -1);
    tl_release(val);
    tl_release(c);
    tl_release(s);
    tl_release(ns);
}

/* Attention of every head over positions 0..pos of layer y's cache, into
 * xb: scores q.k / sqrt(head_size), their softmax, the weighted values.
 * The kv_mul query heads of a group are the rows of one product with their
 * key/value head. */
static void attention(const Transformer *t, const Layer *y, int pos)
{
    int n_kv = t->config.n_kv_heads, hs = t->head_size, mul = t->kv_mul;
    tl_tensor *qh = tl_view(t->q, TL_SHAPE(n_kv, mul, hs));
    tl_tensor *kc = tl_narrow(y->key_cache, 0, 0, pos + 1);
    tl_tensor *kv = tl_view(kc, TL_SHAPE(pos + 1, n_kv, hs));
    tl_tensor *kt = tl_permute(kv, TL_DIMS(1, 2, 0));
    tl_tensor *scores = tl_matmul(qh, kt);
    tl_tensor *scaled = tl_div_scalar(scores, sqrtf((float)hs));
    tl_tensor *att = tl_softmax(scaled, -1);
    tl_tensor *vc = tl_narrow(y->value_cache, 0, 0, pos + 1);
    tl_tensor *vv = tl_view(vc, TL_SHAPE(pos + 1, n_kv, hs));
    tl_tensor *vh = tl_permute(vv, TL_DIMS(1, 0, 2));
    tl_tensor *xbh = tl_view(t->xb, TL_SHAPE(n_kv, mul, hs));
    tl_matmul_out(xbh, att, vh);
    tl_tensor *done[] = {qh, kc, kv, kt, scores, scaled, att, vc, vv, vh, xbh};
    for (size_t k = 0; k < sizeof done / sizeof *done; k++)
        tl_release(done[k]);
}

/* x += wo attention(rope(wq xb), rope(wk xb) -> cache, wv xb -> cache). */
static void attention_block(Transformer *t, const Layer *y, int pos, tl_tensor *cc, tl_tensor *ms)
{
    rmsnorm(t->xb, t->x, y->rms_att);
    tl_tensor *k = tl_select(y->key_cache, 0, pos);
    tl_tensor *v = tl_select(y->value_cache, 0, pos);
    tl_matmul_out(t->q, y->wq, t->xb);
    tl_matmul_out(k, y->wk, t->xb);
    tl_matmul_out(v, y->wv, t->xb);
    rope(t, t->q, t->config.n_heads, cc, ms);
    rope(t, k, t->config.n_kv_heads, cc, ms);
    attention(t, y, pos);
    tl_matmul_out(t->xb2, y->wo, t->xb);
    tl_add_(t->x, t->xb2);
    tl_release(k);
    tl_release(v);
}

/* x += w2 (silu(w1 xb) * w3 xb), xb = rmsnorm(x). */
static void ffn_block(Transformer *t, const Layer *y)
{
    rmsnorm(t->xb, t->x, y->rms_ffn);
    tl_matmul_out(t->hb, y->w1, t->xb);
    tl_matmul_out(t->hb2, y->w3, t->xb);
    tl_tensor *act = tl_silu(t->hb);
    tl_mul_(act, t->hb2);
    tl_matmul_out(t->xb, y->w2, act);
    tl_add_(t->x, t->xb);
    tl_release(act);
}

/* The logits of the token after token at pos (t->logits). */
static tl_tensor *forward(Transformer *t, int token, int pos)
{
    tl_tensor *row = tl_select(t->token_embedding_table, 0, token);
    tl_copy_(t->x, row);
    tl_release(row);
    tl_tensor *cc, *ms;
    rope_tables(t, pos, &cc, &ms);
    for (int l = 0; l < t->config.n_layers; l++) {
        attention_block(t, &t->layers[l], pos, cc, ms);
        ffn_block(t, &t->layers[l]);
    }
    tl_release(cc);
    tl_release(ms);
    rmsnorm(t->x, t->x, t->rms_final);
    tl_matmul_out(t->logits, t->wcls, t->x);
    return t->logits;
}

/* ---- the tokenizer (byte-pair encoding) ---- */

typedef struct TokenIndex {
    const char *str;
    int id;
} TokenIndex;

typedef struct Tokenizer {
    char **vocab;
    float *vocab_scores;
    TokenIndex *sorted_vocab; /* built on the first encode */
    int vocab_size;
    unsigned int max_token_length; /* bytes */
    unsigned char byte_pieces[512]; /* each byte value as a one-byte string */
} Tokenizer;

static int compare_tokens(const void *a, const void *b)
{
    return strcmp(((const TokenIndex *)a)->str, ((const TokenIndex *)b)->str);
}

static void read_exact(void *p, size_t n, FILE *f, const char *path)
{
    if (n > 0 && fread(p, n, 1, f) != 1) {
        fprintf(stderr, "run: %s: short tokenizer file\n", path);
        exit(EXIT_FAILURE);
    }
}

static void build_tokenizer(Tokenizer *t, const char *path, int vocab_size)
{
    t->vocab_size = vocab_size;
    t->vocab = calloc((size_t)vocab_size, sizeof *t->vocab);
    t->vocab_scores = malloc((size_t)vocab_size * sizeof *t->vocab_scores);
    t->sorted_vocab = NULL;
    if (!t->vocab || !t->vocab_scores)
        die("out of memory");
    for (int i = 0; i < 256; i++) {
        t->byte_pieces[i * 2] = (unsigned char)i;
        t->byte_pieces[i * 2 + 1] = '\0';
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "run: couldn't load %s\n", path);
        exit(EXIT_FAILURE);
    }
    read_exact(&t->max_token_length, sizeof(int), f, path);
    for (int i = 0; i < vocab_size; i++) {
        int len;
        read_exact(t->vocab_scores + i, sizeof(float), f, path);
        read_exact(&len, sizeof len, f, path);
        if (len < 0 || (unsigned)len > t->max_token_length) {
            fprintf(stderr, "run: %s: piece %d has length %d\n", path, i, len);
            exit(EXIT_FAILURE);
        }
        if (!(t->vocab[i] = malloc((size_t)len + 1)))
            die("out of memory");
        read_exact(t->vocab[i], (size_t)len, f, path);
        t->vocab[i][len] = '\0';
    }
    fclose(f);
}

static void free_tokenizer(Tokenizer *t)
{
    for (int i = 0; i < t->vocab_size; i++)
        free(t->vocab[i]);
    free(t->vocab);
    free(t->vocab_scores);
    free(t->sorted_vocab);
}

/* The text of token after prev_token: a piece's leading space is dropped
 * after BOS (1), and a piece <0xHH> is that byte. */
static const char *decode(Tokenizer *t, int prev_token, int token)
{
    const char *piece = t->vocab[token];
    unsigned char byte_val;
    if (prev_token == 1 && piece[0] == ' ')
        piece++;
    if (sscanf(piece, "<0x%02hhX>", &byte_val) == 1)
        piece = (const char *)t->byte_pieces + byte_val * 2;
    return piece;
}

/* Prints a piece unless it is a single unprintable, non-space byte. */
static void safe_printf(const char *piece)
{
    if (!piece || !piece[0])
        return;
    if (!piece[1] && !(isprint((unsigned char)piece[0]) || isspace((unsigned char)piece[0])))
        return;
    printf("%s", piece);
}

static int str_lookup(const char *str, const TokenIndex *sorted, int n)
{
    TokenIndex key = {.str = str};
    const TokenIndex *r = bsearch(&key, sorted, (size_t)n, sizeof key, compare_tokens);
    return r ? r->id : -1;
}

static void sort_vocab(Tokenizer *t)
{
    if (t->sorted_vocab)
        return;
    t->sorted_vocab = malloc((size_t)t->vocab_size * sizeof *t->sorted_vocab);
    if (!t->sorted_vocab)
        die("out of memory");
    for (int i = 0; i < t->vocab_size; i++)
        t->sorted_vocab[i] = (TokenIndex){t->vocab[i], i};
    qsort(t->sorted_vocab, (size_t)t->vocab_size, sizeof *t->sorted_vocab, compare_tokens);
}

/* Each UTF-8 code point of text as its piece, or its bytes as byte tokens
 * (ids 3 + byte) when the vocabulary has no such piece. */
static void encode_code_points(Tokenizer *t, const char *text, char *buf, int *tokens, int *n)
{
    size_t len = 0;
    for (const char *c = text; *c; c++) {
        if ((*c & 0xC0) != 0x80)
            len = 0; /* an ASCII byte or a leading byte starts a code point */
        buf[len++] = *c;
        buf[len] = '\0';
        if ((c[1] & 0xC0) == 0x80 && len < 4)
            continue; /* a continuation byte follows */
        int id = str_lookup(buf, t->sorted_vocab, t->vocab_size);
        if (id != -1) {
            tokens[(*n)++] = id;
        } else {
            for (size_t i = 0; i < len; i++)
                tokens[(*n)++] = (unsigned char)buf[i] + 3;
        }
        len = 0;
    }
}

/* Merges the consecutive pair whose concatenation has the best score, until none does. */
static void merge_pairs(Tokenizer *t, char *buf, int *tokens, int *n)
{
    for (;;) {
        float best_score = -1e10f;
        int best_id = -1, best_idx = -1;
        for (int i = 0; i < *n - 1; i++) {
            sprintf(buf, "%s%s", t->vocab[tokens[i]], t->vocab[tokens[i + 1]]);
            int id = str_lookup(buf, t->sorted_vocab, t->vocab_size);
            if (id != -1 && t->vocab_scores[id] > best_score) {
                best_score = t->vocab_scores[id];
                best_id = id;
                best_idx = i;
            }
        }
        if (best_idx == -1)
            return;
        tokens[best_idx] = best_id;
        for (int i = best_idx + 1; i < *n - 1; i++)
            tokens[i] = tokens[i + 1];
        (*n)--;
    }
}

/* text's tokens (BOS first when bos, EOS last when eos) into tokens, which
 * holds strlen(text) + 3. */
static void encode(Tokenizer *t, const char *text, int bos, int eos, int *tokens, int *n)
{
    sort_vocab(t);
    char *buf = malloc(t->max_token_length * 2 + 1 + 2);
    if (!buf)
        die("out of memory");
    *n = 0;
    if (bos)
        tokens[(*n)++] = 1;
    if (text[0] != '\0') /* sentencepiece's dummy prefix */
        tokens[(*n)++] = str_lookup(" ", t->sorted_vocab, t->vocab_size);
    encode_code_points(t, text, buf, tokens, n);
    merge_pairs(t, buf, tokens, n);
    if (eos)
        tokens[(*n)++] = 2;
    free(buf);
}

/* ---- the sampler ---- */

typedef struct ProbIndex {
    float prob;
    int index;
} ProbIndex;

typedef struct Sampler {
    int vocab_size;
    ProbIndex *probindex; /* top-p's candidates */
    float *probs;         /* the probabilities, on the host */
    float temperature;
    float topp;
    unsigned long long rng_state;
} Sampler;

static void build_sampler(Sampler *s, int vocab_size, float temperature, float topp,
                          unsigned long long seed)
{
    s->vocab_size = vocab_size;
    s->temperature = temperature;
    s->topp = topp;
    s->rng_state = seed;
    s->probindex = malloc((size_t)vocab_size * sizeof *s->probindex);
    s->probs = malloc((size_t)vocab_size * sizeof *s->probs);
    if (!s->probindex || !s->probs)
        die("out of memory");
}

static void free_sampler(Sampler *s)
{
    free(s->probindex);
    free(s->probs);
}

/* xorshift* (Marsaglia; Vigna's multiplier). */
static unsigned int random_u32(unsigned long long *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (unsigned int)((*state * 0x2545F4914F6CDD1Dull) >> 32);
}

/* A float in [0, 1) from the top 24 bits. */
static float random_f32(unsigned long long *state)
{
    return (float)(random_u32(state) >> 8) / 16777216.0f;
}

/* The first index whose cumulative probability passes coin (the last on rounding). */
static int sample_mult(const float *p, int n, float coin)
{
    float cdf = 0.0f;
    for (int i = 0; i < n; i++) {
        cdf += p[i];
        if (coin < cdf)
            return i;
    }
    return n - 1;
}

static int compare_prob(const void *a, const void *b)
{
    const ProbIndex *x = a, *y = b;
    return x->prob > y->prob ? -1 : x->prob < y->prob ? 1 : 0;
}

/* Nucleus sampling: from the most probable tokens whose probabilities
 * first pass topp in sum.  A token below (1 - topp) / (n - 1) can never be
 * among them, so it is not sorted. */
static int sample_topp(const float *p, int n, float topp, ProbIndex *pi, float coin)
{
    int n0 = 0;
    const float cutoff = (1.0f - topp) / (float)(n - 1);
    for (int i = 0; i < n; i++)
        if (p[i] >= cutoff)
            pi[n0++] = (ProbIndex){p[i], i};
    qsort(pi, (size_t)n0, sizeof *pi, compare_prob);
    float cumulative = 0.0f;
    int last = n0 - 1;
    for (int i = 0; i < n0; i++) {
        cumulative += pi[i].prob;
        if (cumulative > topp) {
            last = i;
            break;
        }
    }
    float r = coin * cumulative, cdf = 0.0f;
    for (int i = 0; i <= last; i++) {
        cdf += pi[i].prob;
        if (r < cdf)
            return pi[i].index;
    }
    return pi[last].index;
}

/* The next token: the argmax at temperature 0, else a draw from
 * softmax(logits / temperature) (top-p when 0 < topp < 1). */
static int sample(Sampler *s, tl_tensor *logits)
{
    if (s->temperature == 0.0f) {
        tl_tensor *best = tl_argmax(logits, 0, false);
        int next = (int)tl_get(best, TL_SHAPE0);
        tl_release(best);
        return next;
    }
    tl_tensor *scaled = tl_div_scalar(logits, s->temperature);
    tl_tensor *probs = tl_softmax(scaled, 0);
    tl_copy_to_host(probs, s->probs, (int64_t)s->vocab_size * (int64_t)sizeof(float));
    tl_release(scaled);
    tl_release(probs);
    float coin = random_f32(&s->rng_state);
    if (s->topp <= 0 || s->topp >= 1)
        return sample_mult(s->probs, s->vocab_size, coin);
    return sample_topp(s->probs, s->vocab_size, s->topp, s->probindex, coin);
}

/* ---- generation ---- */

static long time_in_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The prompt's tokens are forced, then each sampled token is printed, for
 * steps positions or until BOS; the speed (tokens after the first) goes to
 * stderr. */
static void generate(Transformer *tr, Tokenizer *tok, Sampler *s, const char *prompt, int steps)
{
    if (!prompt)
        prompt = "";
    int n_prompt = 0;
    int *prompt_tokens = malloc((strlen(prompt) + 3) * sizeof *prompt_tokens);
    if (!prompt_tokens)
        die("out of memory");
    encode(tok, prompt, 1, 0, prompt_tokens, &n_prompt);
    long start = 0;
    int token = prompt_tokens[0], pos = 0;
    while (pos < steps) {
        tl_tensor *logits = forward(tr, token, pos);
        int next = pos < n_prompt - 1 ? prompt_tokens[pos + 1] : sample(s, logits);
        pos++;
        if (next == 1)
            break;
        safe_printf(decode(tok, token, next));
        fflush(stdout);
        token = next;
        if (start == 0)
            start = time_in_ms();
    }
    printf("\n");
    if (pos > 1)
        fprintf(stderr, "achieved tok/s: %f\n", (pos - 1) / (double)(time_in_ms() - start) * 1000);
    free(prompt_tokens);
}

static void read_stdin(const char *guide, char *buf, size_t size)
{
    printf("%s", guide);
    if (fgets(buf, (int)size, stdin)) {
        size_t len = strlen(buf);
        if (len > 0 && buf[len - 1] == '\n')
            buf[len - 1] = '\0';
    }
}

/* The Llama 2 chat schema's prompt of this turn. */
static void render_turn(char *out, size_t size, int first, const char *system, const char *user)
{
    if (first && system[0] != '\0')
        snprintf(out, size, "[INST] <<SYS>>\n%s\n<</SYS>>\n\n%s [/INST]", system, user);
    else
        snprintf(out, size, "[INST] %s [/INST]", user);
}

/* Turns of the user (a prompt, from the options at first, then stdin) and
 * the assistant (sampled until EOS), for steps positions in all. */
static void chat(Transformer *tr, Tokenizer *tok, Sampler *s, const char *cli_user,
                 const char *cli_system, int steps)
{
    char system[512] = "", user[512], rendered[1152];
    int *prompt_tokens = malloc(1152 * sizeof *prompt_tokens);
    int n_prompt = 0, user_idx = 0, user_turn = 1, next = 0, token, pos = 0;
    if (!prompt_tokens)
        die("out of memory");
    while (pos < steps) {
        if (user_turn) {
            if (pos == 0 && !cli_system)
                read_stdin("Enter system prompt (optional): ", system, sizeof system);
            else if (pos == 0)
                snprintf(system, sizeof system, "%s", cli_system);
            if (pos == 0 && cli_user)
                snprintf(user, sizeof user, "%s", cli_user);
            else
                read_stdin("User: ", user, sizeof user);
            render_turn(rendered, sizeof rendered, pos == 0, system, user);
            encode(tok, rendered, 1, 0, prompt_tokens, &n_prompt);
            user_idx = 0;
            user_turn = 0;
            printf("Assistant: ");
        }
        token = user_idx < n_prompt ? prompt_tokens[user_idx++] : next;
        if (token == 2)
            user_turn = 1;
        next = sample(s, forward(tr, token, pos));
        pos++;
        if (user_idx >= n_prompt && next != 2) {
            safe_printf(decode(tok, token, next));
            fflush(stdout);
        }
        if (next == 2)
            printf("\n");
    }
    printf("\n");
    free(prompt_tokens);
}

static void error_usage(void)
{
    fprintf(stderr, "Usage:   run <checkpoint> [options]\n"
                    "Example: run model.bin -n 256 -i \"Once upon a time\"\n"
                    "Options:\n"
                    "  -t <float>  temperature in [0,inf], default 1.0\n"
                    "  -p <float>  p value in top-p (nucleus) sampling in [0,1] default 0.9\n"
                    "  -s <int>    random seed, default time(NULL)\n"
                    "  -n <int>    number of steps to run for, default 256. 0 = max_seq_len\n"
                    "  -i <string> input prompt\n"
                    "  -z <string> optional path to custom tokenizer\n"
                    "  -m <string> mode: generate|chat, default: generate\n"
                    "  -y <string> (optional) system prompt in chat mode\n");
    exit(EXIT_FAILURE);
}

typedef struct Options {
    const char *checkpoint, *tokenizer, *prompt, *mode, *system_prompt;
    float temperature, topp;
    int steps;
    unsigned long long seed;
} Options;

/* llama2.c's options: pairs of a one-letter flag and its value. */
static Options parse_options(int argc, char **argv)
{
    Options o = {NULL, "tokenizer.bin", NULL, "generate", NULL, 1.0f, 0.9f, 256, 0};
    if (argc < 2)
        error_usage();
    o.checkpoint = argv[1];
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 >= argc || argv[i][0] != '-' || strlen(argv[i]) != 2)
            error_usage();
        const char *v = argv[i + 1];
        switch (argv[i][1]) {
        case 't': o.temperature = (float)atof(v); break;
        case 'p': o.topp = (float)atof(v); break;
        case 's': o.seed = (unsigned long long)atoi(v); break;
        case 'n': o.steps = atoi(v); break;
        case 'i': o.prompt = v; break;
        case 'z': o.tokenizer = v; break;
        case 'm': o.mode = v; break;
        case 'y': o.system_prompt = v; break;
        default: error_usage();
        }
    }
    if (o.seed == 0) /* llama2.c: rng_seed <= 0 on an unsigned value */
        o.seed = (unsigned int)time(NULL);
    if (o.temperature < 0.0f)
        o.temperature = 0.0f;
    if (o.topp < 0.0f || 1.0f < o.topp)
        o.topp = 0.9f;
    if (o.steps < 0)
        o.steps = 0;
    return o;
}

int main(int argc, char **argv)
{
    Options o = parse_options(argc, argv);
    Transformer tr;
    build_transformer(&tr, o.checkpoint);
    if (o.steps == 0 || o.steps > tr.config.seq_len)
        o.steps = tr.config.seq_len;
    Tokenizer tok;
    build_tokenizer(&tok, o.tokenizer, tr.config.vocab_size);
    Sampler s;
    build_sampler(&s, tr.config.vocab_size, o.temperature, o.topp, o.seed);
    int status = EXIT_SUCCESS;
    if (strcmp(o.mode, "generate") == 0) {
        generate(&tr, &tok, &s, o.prompt, o.steps);
    } else if (strcmp(o.mode, "chat") == 0) {
        chat(&tr, &tok, &s, o.prompt, o.system_prompt, o.steps);
    } else {
        fprintf(stderr, "unknown mode: %s\n", o.mode);
        status = EXIT_FAILURE;
    }
    free_sampler(&s);
    free_tokenizer(&tok);
    free_transformer(&tr);
    if (status != EXIT_SUCCESS)
        error_usage();
    return status;
}
