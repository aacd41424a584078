/* A helper called twice returns two run-time values: each is named after
 * the variable its call's result is assigned to (rows, cols; not v and v#2),
 * the names are the same whatever --bind gives, and each --bind binds its
 * own call's value.  depth reads ROWS again: another value for the
 * analysis (the run has the same), another symbol. */
// bind: rows cols depth
// values: 2 3 2 | 3 2 3 | 5 7 5
// env: ROWS COLS
// symbols: rows cols depth
#include <tensorlint/tensor.h>
#include <stdlib.h>

static int env_int(const char *name, int def)
{
    const char *s = getenv(name);
    if (!s)
        return def;
    int v = atoi(s);          /* one value per call: rows, then cols */
    return v;
}

static int env_size(const char *name)
{
    int n = env_int(name, 1); /* returned on: the name is main's variable's */
    return n;
}

int main(void)
{
    int rows = env_int("ROWS", 4), cols = env_int("COLS", 8);
    int depth = env_size("ROWS");
    tl_tensor *t = tl_zeros(TL_SHAPE(rows, cols), TL_F32, TL_CPU);   /* 4*rows*cols B */
    tl_tensor *u = tl_ones(TL_SHAPE(cols, depth), TL_F32, TL_CPU);   /* 4*cols*depth B */
    tl_tensor *p = tl_matmul(t, u);                                  /* (rows, depth) */
    tl_release(p);
    tl_release(u);
    tl_release(t);
    return 0;
}
