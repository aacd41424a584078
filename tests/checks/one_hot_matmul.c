/* one-hot-matmul: a matmul with a one-hot matrix built from tl_eq(indices, tl_arange). */
// CHECK-OPTIONS: --checks=-*,one-hot-matmul
#include <tensorlint/tensor.h>

#define N 6
#define V 32
#define C 8

/* An embedding's backward through a one-hot matrix: 6 x 32 BOOL (192 B)
 * and its f32 cast (768 B) are materialised to add 6 rows into place. */
static void embedding_backward(void)
{
    tl_tensor *tokens = tl_randint(0, V, TL_SHAPE(N), TL_CPU);
    tl_tensor *dout = tl_randn(TL_SHAPE(N, C), TL_F32, TL_CPU);
    tl_tensor *vocab = tl_arange(V, TL_I64, TL_CPU);
    tl_tensor *col = tl_unsqueeze(tokens, 1);
    tl_tensor *hot = tl_eq(col, vocab); // expected-note {{the one-hot matrix is built here}}
    tl_tensor *onehot = tl_to(hot, TL_F32);
    tl_tensor *oht = tl_t(onehot);
    tl_tensor *dwte = tl_matmul(oht, dout); // expected-warning {{[one-hot-matmul]}} {{materialises 960 B per execution to add rows into place: tl_index_add_}}
    tl_release(dwte);
    tl_release(oht);
    tl_release(onehot);
    tl_release(hot);
    tl_release(col);
    tl_release(vocab);
    tl_release(dout);
    tl_release(tokens);
}

/* The forward: one-hot @ wte picks rows, into an out= buffer. */
static void embedding_forward(void)
{
    tl_tensor *tokens = tl_randint(0, V, TL_SHAPE(N), TL_CPU);
    tl_tensor *wte = tl_randn(TL_SHAPE(V, C), TL_F32, TL_CPU);
    tl_tensor *x = tl_empty(TL_SHAPE(N, C), TL_F32, TL_CPU);
    tl_tensor *vocab = tl_arange(V, TL_I64, TL_CPU);
    tl_tensor *row = tl_view(vocab, TL_SHAPE(1, V));
    tl_tensor *col = tl_unsqueeze(tokens, 1);
    tl_tensor *hot = tl_eq(row, col); // expected-note {{the one-hot matrix is built here}}
    tl_tensor *onehot = tl_to(hot, TL_F32);
    tl_matmul_out(x, onehot, wte); // expected-warning {{[one-hot-matmul]}} {{to select rows: tl_index_select}}
    tl_release(onehot);
    tl_release(hot);
    tl_release(col);
    tl_release(row);
    tl_release(vocab);
    tl_release(x);
    tl_release(wte);
    tl_release(tokens);
}

/* Near misses: a mask from tl_eq of two data tensors multiplied in; the
 * embedding done with index_select and index_add_; a one-hot matrix used
 * for a loss, not in a matmul. */
static void near_miss(void)
{
    tl_tensor *tokens = tl_randint(0, V, TL_SHAPE(N), TL_CPU);
    tl_tensor *wte = tl_randn(TL_SHAPE(V, C), TL_F32, TL_CPU);
    tl_tensor *a = tl_randn(TL_SHAPE(N, V), TL_F32, TL_CPU);
    tl_tensor *b = tl_randn(TL_SHAPE(N, V), TL_F32, TL_CPU);
    tl_tensor *same = tl_eq(a, b);
    tl_tensor *mask = tl_to(same, TL_F32);
    tl_tensor *y = tl_matmul(mask, wte);
    tl_tensor *x = tl_index_select(wte, 0, tokens);
    tl_tensor *dwte = tl_zeros(TL_SHAPE(V, C), TL_F32, TL_CPU);
    tl_index_add_(dwte, 0, tokens, x);
    tl_tensor *vocab = tl_arange(V, TL_I64, TL_CPU);
    tl_tensor *col = tl_unsqueeze(tokens, 1);
    tl_tensor *hot = tl_eq(col, vocab);
    tl_tensor *onehot = tl_to(hot, TL_F32);
    tl_sub_(a, onehot);
    tl_release(onehot);
    tl_release(hot);
    tl_release(col);
    tl_release(vocab);
    tl_release(dwte);
    tl_release(x);
    tl_release(y);
    tl_release(mask);
    tl_release(same);
    tl_release(b);
    tl_release(a);
    tl_release(wte);
    tl_release(tokens);
}

int main(void)
{
    embedding_backward();
    embedding_forward();
    near_miss();
    return 0;
}
