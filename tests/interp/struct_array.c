/* An array of structs of handles: layers[l].w1, layers[l].w2. */
#include <tensorlint/tensor.h>

#define N 2

typedef struct Layer {
    tl_tensor *w1;
    tl_tensor *w2;
} Layer;

int main(void) // expected-func: peak=704 end=0 moved=1648 peak-line=21 calls=9
{
    Layer layers[N];
    for (int l = 0; l < N; l++) {
        layers[l].w1 = tl_randn(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: op=randn shape=(4, 8) bytes=128 exec=2 freed=28
        layers[l].w2 = tl_randn(TL_SHAPE(8, 4), TL_F32, TL_CPU); // expected: op=randn shape=(8, 4) bytes=128 exec=2 freed=29
    }
    tl_tensor *x = tl_ones(TL_SHAPE(3, 4), TL_F32, TL_CPU); // expected: x bytes=48 freed=23
    for (int l = 0; l < N; l++) {
        tl_tensor *h = tl_matmul(x, layers[l].w1); // expected: h shape=(3, 8) strides=(8, 1) bytes=96 moved=272 exec=2 freed=22
        tl_tensor *y = tl_matmul(h, layers[l].w2); // expected: y shape=(3, 4) strides=(4, 1) bytes=48 moved=272 exec=2 freed=23
        tl_release(h);
        tl_release(x);
        x = y;
    }
    tl_release(x);
    for (int l = 0; l < N; l++) {
        tl_release(layers[l].w1);
        tl_release(layers[l].w2);
    }
    return 0;
}
