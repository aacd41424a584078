/* One run-time value, one symbol: the same abs() of a header field taken in
 * two helpers, one into a long and one into an int (llama2.c's
 * `abs(c->vocab_size)` in map_weights and malloc_run_state), is the field
 * itself, not a symbol per helper (vocab, vocab#2).  A sampler that copies
 * vocab_size floats out of the abs(vocab_size)-float logits copies all of
 * them: the sizes decide it, and nothing is assumed (was: `c.vocab_size <
 * vocab`, false for every run). */
// bind: m.c.vocab_size m.c.dim
// values: 3 2 | 7 5 | 16 4
// symbols: m.c.vocab_size m.c.dim
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct Config {
    int vocab_size, dim;
} Config;

typedef struct Model {
    Config c;
    tl_tensor *table, *logits;
} Model;

static void map_table(Model *m)
{
    Config *c = &m->c;
    long vocab = abs(c->vocab_size), dim = c->dim;
    m->table = tl_zeros(TL_SHAPE(vocab, dim), TL_F32, TL_CPU);
}

static void make_state(Model *m)
{
    Config *c = &m->c;
    int vocab = abs(c->vocab_size);
    m->logits = tl_zeros(TL_SHAPE(vocab), TL_F32, TL_CPU);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    Model m;
    m.c.vocab_size = atoi(argv[1]);
    m.c.dim = atoi(argv[2]);
    if (m.c.vocab_size <= 0 || m.c.dim <= 0)
        return 1;
    map_table(&m);
    make_state(&m);
    float *probs = malloc(sizeof *probs * (size_t)m.c.vocab_size);
    if (!probs)
        return 1;
    tl_tensor *p = tl_softmax(m.logits, 0);
    tl_copy_to_host(p, probs, (int64_t)m.c.vocab_size * (int64_t)sizeof(float));
    tl_tensor *row = tl_select(m.table, 0, abs(m.c.vocab_size) - 1);
    tl_tensor *y = tl_mul(row, row);
    tl_release(y);
    tl_release(row);
    tl_release(p);
    tl_release(m.logits);
    tl_release(m.table);
    free(probs);
    return 0;
}
