/* File-scope handles and a file-scope struct of handles: loaded, run and freed in three functions. */
#include <stdint.h>
#include <tensorlint/tensor.h>

static tl_tensor *g_embed;
static struct {
    tl_tensor *w;
    tl_tensor *b;
} g_model;

static void load(void)
{
    g_embed = tl_randn(TL_SHAPE(10, 4), TL_F32, TL_CPU); // expected: op=randn shape=(10, 4) bytes=160 freed=32
    g_model.w = tl_randn(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: op=randn shape=(4, 4) bytes=64 freed=33
    g_model.b = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU); // expected: op=zeros shape=(4,) bytes=16 freed=34
}

static tl_tensor *run(int64_t token)
{
    tl_tensor *e = tl_select(g_embed, 0, token); // expected: e shape=(4,) strides=(1,) offset=28 kind=view view-of=@13
    tl_tensor *x = tl_unsqueeze(e, 0); // expected: x shape=(1, 4) strides=(4, 1) offset=28 kind=view view-of=e
    tl_tensor *h = tl_matmul(x, g_model.w); // expected: h shape=(1, 4) kind=new bytes=16 moved=96 freed=26
    tl_tensor *y = tl_add(h, g_model.b); // expected: y shape=(1, 4) kind=new bytes=16 moved=48 freed=42
    tl_release(e);
    tl_release(x);
    tl_release(h);
    return y;
}

static void unload(void)
{
    tl_release(g_embed);
    tl_release(g_model.w);
    tl_release(g_model.b);
}

int main(void) // expected-func: peak=272 end=0 moved=384 peak-line=40 calls=7
{
    load();
    tl_tensor *y = run(7);
    unload();
    tl_release(y);
    return 0;
}
