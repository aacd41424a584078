/* Local handles in straight-line code: new storages, views of them, a copy. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=64 end=0 moved=96 peak-line=11 calls=6
{
    tl_tensor *x = tl_randn(TL_SHAPE(2, 3), TL_F32, TL_CPU); // expected: x op=randn shape=(2, 3) strides=(3, 1) offset=0 dtype=f32 device=cpu kind=new bytes=24 moved=24 freed=15
    tl_tensor *t = tl_t(x); // expected: t shape=(3, 2) strides=(1, 3) kind=view view-of=x same-storage=x contiguous=no moved=0
    tl_tensor *c = tl_contiguous(t); // expected: c shape=(3, 2) strides=(2, 1) kind=new view-of=? bytes=24 moved=48 freed=16 // expected-warning {{16 B copied for nothing}} {{[copy-then-slice]}}
    tl_tensor *r = tl_view(c, TL_SHAPE(6)); // expected: r shape=(6,) strides=(1,) kind=view view-of=c
    tl_tensor *s = tl_slice(r, 0, 2, 6, 2); // expected: s shape=(2,) strides=(2,) offset=2 kind=view view-of=r // expected-note {{only this part of the copy is read}}
    tl_tensor *d = tl_to(s, TL_F64); // expected: d dtype=f64 shape=(2,) strides=(1,) kind=new bytes=16 moved=24 freed=17
    tl_release(s);
    tl_release(r);
    tl_release(t);
    tl_release(x);
    tl_release(c);
    tl_release(d);
    return 0;
}
