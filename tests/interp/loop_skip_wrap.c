/* A loader whose position steps through a buffer and wraps to its start
 * (7 positions), in a loop that evaluates every 4 steps: the position is
 * read only to compute itself (the wrap's test, its step), so the state
 * comes back every 4 steps but for it, and is counted from there.  The
 * position is not known after the loop: the batch read after it takes
 * either arm of the wrap's test, which writes nothing else. */
#include <tensorlint/tensor.h>

typedef struct {
    int64_t n, pos;
} loader;

static tl_tensor *next_batch(loader *l, const float *data)
{
    if (l->pos + 16 > l->n)
        l->pos = 0;
    tl_tensor *x = tl_from_data(data + l->pos, TL_SHAPE(16), TL_F32, TL_CPU); // expected: x bytes=64 exec=10001
    l->pos += 16;
    return x;
}

int main(void) // expected-func: peak=132 end=0 peak-line=37 calls=22504
{
    static float data[112];
    loader ld = {112, 0};
    tl_tensor *acc = tl_zeros(TL_SHAPE(16), TL_F32, TL_CPU); // expected: acc bytes=64 exec=1
    for (int step = 0; step < 10000; step++) {
        tl_tensor *x = next_batch(&ld, data);
        tl_add_(acc, x);
        tl_release(x);
        if (step % 4 == 3) {
            tl_tensor *m = tl_mul(acc, acc); // expected: m bytes=64 exec=2500
            tl_release(m);
        }
    }
    tl_tensor *s = tl_sum(acc, 0, false); // expected: s bytes=4 exec=1
    tl_tensor *last = next_batch(&ld, data); // (the position read, not known: either arm)
    tl_add_(acc, last);
    tl_release(last);
    tl_release(s);
    tl_release(acc);
    return 0;
}
