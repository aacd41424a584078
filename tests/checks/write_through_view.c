/* write-through-view: an in-place update through a view changes a tensor read later. */
// CHECK-OPTIONS: --checks=-*,write-through-view
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *batch = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    for (int i = 0; i < 8; i++) {
        tl_tensor *row = tl_select(batch, 0, i); // expected-note {{makes a view}}
        tl_tensor *m = tl_mean(row, 0, true);
        tl_sub_(row, m); // expected-warning {{[write-through-view]}}
        tl_release(m);
        tl_release(row);
    }
    tl_tensor *stats = tl_sum(batch, 0, false); // expected-note {{read here}}
    tl_release(stats);
    tl_release(batch);
}

/* The loop-carried case: each epoch normalizes the rows of the batch in
 * place, so the second epoch's mean reads the rows the first one changed. */
static void fires_across_epochs(void)
{
    tl_tensor *batch = tl_randn(TL_SHAPE(4, 16), TL_F32, TL_CPU);
    for (int epoch = 0; epoch < 2; epoch++) {
        for (int i = 0; i < 4; i++) {
            tl_tensor *x = tl_select(batch, 0, i); // expected-note {{makes a view}}
            tl_tensor *m = tl_mean(x, 0, true); // expected-note {{read here}}
            tl_sub_(x, m); // expected-warning {{[write-through-view]}}
            tl_release(m);
            tl_release(x);
        }
    }
    tl_release(batch);
}

/* Accumulation into a freshly zeroed output, row by row and tile by tile,
 * read once it is filled: an output buffer, not a changed input. */
static void accumulate_into_zeroed_output(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(4, 16), TL_F32, TL_CPU);
    tl_tensor *out = tl_zeros(TL_SHAPE(4, 16), TL_F32, TL_CPU);
    for (int step = 0; step < 3; step++) {
        for (int i = 0; i < 4; i++) {
            tl_tensor *orow = tl_select(out, 0, i);
            tl_tensor *xrow = tl_select(x, 0, i);
            tl_add_(orow, xrow);
            tl_release(xrow);
            tl_release(orow);
        }
    }
    tl_tensor *tile = tl_narrow(out, 1, 0, 8);
    tl_mul_scalar_(tile, 0.5);
    tl_release(tile);
    tl_tensor *total = tl_sum(out, 0, false);
    tl_release(total);
    tl_release(out);
    tl_release(x);
}

/* Near misses: a copy_ into a slot of a cache (a write meant for the base);
 * an update whose base is never read again; an update of a clone. */
static void near_miss(void)
{
    tl_tensor *cache = tl_zeros(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    tl_tensor *k = tl_randn(TL_SHAPE(1, 64), TL_F32, TL_CPU);
    tl_tensor *slot = tl_narrow(cache, 0, 2, 1);
    tl_copy_(slot, k);
    tl_tensor *s = tl_sum(cache, 0, false);
    tl_tensor *batch = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(batch, 0, 0);
    tl_mul_scalar_(row, 2.0);
    tl_tensor *r = tl_relu(row);
    tl_tensor *v = tl_select(batch, 0, 1);
    tl_tensor *own = tl_clone(v);
    tl_mul_scalar_(own, 0.5);
    tl_release(own);
    tl_release(v);
    tl_release(r);
    tl_release(row);
    tl_release(batch);
    tl_release(s);
    tl_release(slot);
    tl_release(k);
    tl_release(cache);
}

/* One helper carves views out of two storages: the warning names the
 * storage the view written through is of in that call (grads), not the
 * one its first call viewed (params). */
static tl_tensor *carve(tl_tensor *base, int64_t off, int64_t n)
{
    return tl_narrow(base, 0, off, n); // expected-note {{makes a view}}
}

static void names_the_real_base(void)
{
    tl_tensor *params = tl_randn(TL_SHAPE(64), TL_F32, TL_CPU);
    tl_tensor *grads = tl_randn(TL_SHAPE(64), TL_F32, TL_CPU);
    tl_tensor *pv = carve(params, 0, 16);
    tl_tensor *gv = carve(grads, 16, 16);
    tl_mul_scalar_(gv, 0.5); // expected-warning {{[write-through-view]}} {{a view of 'grads'}}
    tl_tensor *total = tl_sum(grads, 0, false); // expected-note {{read here}}
    tl_release(total);
    tl_release(gv);
    tl_release(pv);
    tl_release(grads);
    tl_release(params);
}

/* A training step's arenas: parameters and gradients as slices of one flat
 * buffer each.  The gradients are zeroed, accumulated into through views
 * (slices that do not overlap, the same call site at other offsets), read
 * by the optimizer as a whole; the parameters are updated in place
 * through views while other slices are read.  Every write is meant for the
 * arena and nothing reads contents it expected unchanged: silent. */
static void training_arenas(void)
{
    tl_tensor *params = tl_zeros(TL_SHAPE(4, 32), TL_F32, TL_CPU);
    tl_tensor *grads = tl_zeros(TL_SHAPE(4, 32), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(32), TL_F32, TL_CPU);
    for (int step = 0; step < 3; step++) {
        tl_zero_(grads);
        for (int l = 0; l < 4; l++) {
            tl_tensor *w = tl_select(params, 0, l);
            tl_tensor *g = tl_select(grads, 0, l);
            tl_tensor *y = tl_mul(w, x);
            tl_add_(g, y);
            tl_add_(g, x);
            tl_release(y);
            tl_release(g);
            tl_release(w);
        }
        tl_tensor *norm = tl_sum(grads, 1, false);
        tl_release(norm);
        for (int l = 0; l < 4; l++) {
            tl_tensor *w = tl_select(params, 0, l);
            tl_tensor *g = tl_select(grads, 0, l);
            tl_tensor *other = tl_select(params, 0, 3 - l);
            tl_tensor *peek = tl_sum(other, 0, false);
            tl_addcmul_(w, g, g, -0.01);
            tl_release(peek);
            tl_release(other);
            tl_release(g);
            tl_release(w);
        }
    }
    tl_release(x);
    tl_release(grads);
    tl_release(params);
}

/* A buffer's slice read, then updated through another view, then read
 * again by the first reader: it expected the old contents. */
static void reader_expected_old_contents(void)
{
    tl_tensor *buf = tl_zeros(TL_SHAPE(2, 8), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(8), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(buf, 0, 1);
    tl_copy_(row, x);
    tl_tensor *before = tl_sum(buf, 1, false);
    tl_tensor *alias = tl_select(buf, 0, 1); // expected-note {{makes a view}}
    tl_lerp_(alias, x, 0.5); // expected-warning {{[write-through-view]}}
    tl_tensor *after = tl_sum(buf, 1, false); // expected-note {{read here}}
    tl_release(after);
    tl_release(alias);
    tl_release(before);
    tl_release(row);
    tl_release(x);
    tl_release(buf);
}

/* A loss's gradient written whole through a flattened view of the tensor
 * that holds it (softmax minus the one-hot, the -1s added at row * V + y),
 * then read through the tensor: the change is the point.  Silent. */
static void whole_alias_of_a_result(void)
{
    tl_tensor *logits = tl_randn(TL_SHAPE(4, 8), TL_F32, TL_CPU);
    tl_tensor *index = tl_arange(4, TL_I64, TL_CPU);
    tl_tensor *minus = tl_full(TL_SHAPE(4), -1.0, TL_F32, TL_CPU);
    tl_tensor *dlogits = tl_softmax(logits, 1);
    tl_tensor *flat = tl_view(dlogits, TL_SHAPE(32));
    tl_index_add_(flat, 0, index, minus);
    tl_release(flat);
    tl_mul_scalar_(dlogits, 0.25);
    tl_tensor *s = tl_sum(dlogits, 0, false);
    tl_release(s);
    tl_release(dlogits);
    tl_release(minus);
    tl_release(index);
    tl_release(logits);
}

/* The same write through a view of part of the result: the rows it does
 * not reach keep their softmax, and the reader of the whole sees a mix. */
static void partial_alias_of_a_result(void)
{
    tl_tensor *logits = tl_randn(TL_SHAPE(4, 8), TL_F32, TL_CPU);
    tl_tensor *index = tl_arange(4, TL_I64, TL_CPU);
    tl_tensor *minus = tl_full(TL_SHAPE(4), -1.0, TL_F32, TL_CPU);
    tl_tensor *dlogits = tl_softmax(logits, 1);
    tl_tensor *flat = tl_view(dlogits, TL_SHAPE(32));
    tl_tensor *head = tl_narrow(flat, 0, 0, 16); // expected-note {{makes a view}}
    tl_index_add_(head, 0, index, minus); // expected-warning {{[write-through-view]}}
    tl_tensor *s = tl_sum(dlogits, 0, false); // expected-note {{read here}}
    tl_release(s);
    tl_release(head);
    tl_release(flat);
    tl_release(dlogits);
    tl_release(minus);
    tl_release(index);
    tl_release(logits);
}

/* llama2.c's attention at sizes read at run time (the loop summarised, the
 * spans of its calls formulas): each position's query and key row are
 * written whole (out=), rotated in place through a view, then read with
 * the cache.  What is read is what the same pass wrote: silent. */
static void rotate(tl_tensor *vec, int dim)
{
    tl_tensor *pairs = tl_view(vec, TL_SHAPE(dim / 2, 2));
    tl_mul_scalar_(pairs, 0.5);
    tl_release(pairs);
}

static void rotated_rows_of_a_cache(int steps, int dim)
{
    tl_tensor *cache = tl_zeros(TL_SHAPE(steps, dim), TL_F32, TL_CPU);
    tl_tensor *q = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(dim), TL_F32, TL_CPU);
    for (int pos = 0; pos < steps; pos++) {
        tl_tensor *k = tl_select(cache, 0, pos);
        tl_matmul_out(q, w, x);
        tl_matmul_out(k, w, x);
        rotate(q, dim);
        rotate(k, dim);
        tl_tensor *qh = tl_view(q, TL_SHAPE(1, dim));
        tl_tensor *kc = tl_narrow(cache, 0, 0, pos + 1);
        tl_tensor *kt = tl_transpose(kc, 0, 1);
        tl_tensor *scores = tl_matmul(qh, kt);
        tl_release(scores);
        tl_release(kt);
        tl_release(kc);
        tl_release(qh);
        tl_release(k);
    }
    tl_release(x);
    tl_release(w);
    tl_release(q);
    tl_release(cache);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    rotated_rows_of_a_cache(atoi(argv[1]), 2 * atoi(argv[2]));
    fires();
    fires_across_epochs();
    accumulate_into_zeroed_output();
    near_miss();
    names_the_real_base();
    training_arenas();
    reader_expected_old_contents();
    whole_alias_of_a_result();
    partial_alias_of_a_result();
    return 0;
}
