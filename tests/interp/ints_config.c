/* Sizes held in struct fields: a static const config struct, a copy of it and a pointer to it. */
#include <tensorlint/tensor.h>

typedef struct Config {
    int dim;
    int hidden;
    int n_layers;
} Config;

static const Config CFG = {8, 16, 2};

int main(void) // expected-func: peak=768 end=0 moved=2240 peak-line=21 calls=8
{
    Config c = CFG;
    const Config *p = &c;
    tl_tensor *w1 = tl_randn(TL_SHAPE(CFG.dim, CFG.hidden), TL_F32, TL_CPU); // expected: w1 shape=(8, 16) bytes=512 freed=28
    tl_tensor *x = tl_ones(TL_SHAPE(2, p->dim), TL_F32, TL_CPU); // expected: x shape=(2, 8) bytes=64 freed=24
    for (int l = 0; l < p->n_layers; l++) {
        tl_tensor *h = tl_matmul(x, w1); // expected: h shape=(2, 16) bytes=128 moved=704 exec=2 freed=23
        tl_tensor *y = tl_narrow(h, 1, 0, c.dim); // expected: y shape=(2, 8) strides=(16, 1) kind=view view-of=h exec=2
        tl_tensor *z = tl_contiguous(y); // expected: z shape=(2, 8) strides=(8, 1) kind=new bytes=64 moved=128 exec=2 freed=24
        tl_release(y);
        tl_release(h);
        tl_release(x);
        x = z;
    }
    tl_release(x);
    tl_release(w1);
    return 0;
}
