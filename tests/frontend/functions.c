/* User functions, parameters, shadowing, globals. */
#include <tensorlint/tensor.h>

int g_scale = 2;
static tl_tensor *g_cache;

static int width(int base) { return base * 4; }

static tl_tensor *make(int n, tl_dtype dtype)
{
    return tl_empty(TL_SHAPE(n, width(n)), dtype, TL_CPU);
}

static void consume(tl_tensor *t) { tl_release(t); }

static void fill(tl_tensor **out, int n)
{
    *out = tl_zeros(TL_SHAPE(n), TL_F32, TL_CPU);
}

int main(void)
{
    int n = 16;
    tl_tensor *a = make(n, TL_F32);
    {
        int n = 4; /* shadows the outer n */
        tl_tensor *a = make(n + g_scale, TL_F16);
        consume(a);
    }
    tl_tensor *b = tl_add(make(n, TL_F32), a);
    tl_tensor *c = n > 8 ? a : b;
    tl_tensor *d;
    fill(&d, n);
    g_cache = b;
    consume(tl_clone(c));
    int w = width(n);
    n = w / 2 + g_scale;
    tl_release(a);
    return n;
}
