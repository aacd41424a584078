/* A struct of handles returned by value from a maker and passed by value to users. */
#include <tensorlint/tensor.h>

typedef struct Pair {
    tl_tensor *k;
    tl_tensor *v;
} Pair;

static Pair make_pair(int n)
{
    Pair p;
    p.k = tl_randn(TL_SHAPE(n, 4), TL_F32, TL_CPU); // expected: op=randn shape=(3, 4) bytes=48 freed=27
    p.v = tl_randn(TL_SHAPE(n, 4), TL_F32, TL_CPU); // expected: op=randn shape=(3, 4) bytes=48 freed=28
    return p;
}

static tl_tensor *score(Pair p)
{
    tl_tensor *kt = tl_t(p.k); // expected: kt shape=(4, 3) strides=(1, 4) kind=view view-of=@12 moved=0
    tl_tensor *s = tl_matmul(p.v, kt); // expected: s shape=(3, 3) strides=(3, 1) kind=new bytes=36 moved=132 freed=36
    tl_release(kt);
    return s;
}

static void free_pair(Pair p)
{
    tl_release(p.k);
    tl_release(p.v);
}

int main(void) // expected-func: peak=132 end=0 moved=228 peak-line=34 calls=4
{
    Pair p = make_pair(3);
    tl_tensor *s = score(p);
    free_pair(p);
    tl_release(s);
    return 0;
}
