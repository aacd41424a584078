/* Sizes from enums, a const array of sizes indexed by an enum, and sizeof. */
#include <stdint.h>
#include <tensorlint/tensor.h>

enum { N_HEADS = 2, HEAD_DIM = 4 };
typedef enum { SMALL, MEDIUM, LARGE } size_class;
static const int64_t sizes[3] = {4, 16, 64};

int main(void) // expected-func: peak=560 end=0 moved=560 peak-line=17 calls=3
{
    size_class sc = MEDIUM;
    int64_t n = sizes[sc];
    float buf[6];
    int64_t m = (int64_t)(sizeof buf / sizeof buf[0]);
    tl_tensor *q = tl_zeros(TL_SHAPE(n, N_HEADS * HEAD_DIM), TL_F32, TL_CPU); // expected: q shape=(16, 8) bytes=512 freed=20
    tl_tensor *v = tl_view(q, TL_SHAPE(n, N_HEADS, HEAD_DIM)); // expected: v shape=(16, 2, 4) strides=(8, 4, 1) kind=view view-of=q
    tl_tensor *b = tl_zeros(TL_SHAPE(m, (int64_t)sizeof(double)), TL_U8, TL_CPU); // expected: b shape=(6, 8) dtype=u8 bytes=48 freed=21
    (void)buf;
    tl_release(v);
    tl_release(q);
    tl_release(b);
    return 0;
}
