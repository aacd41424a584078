#include "second.h"

tl_tensor *second_head(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1024, 64), TL_F32, TL_CPU);
    tl_tensor *h = tl_slice(x, 0, 0, 1, 1); // expected: h op=slice shape=(1, 64) kind=view expected-warning {{keeps all 256 KiB of the storage made at line 5 of second.c alive}} {{[slice-pins-storage]}}
    tl_release(x); // expected-note {{the last larger handle into the storage is released here}}
    return h;
}

tl_tensor *second_roundtrip(tl_tensor *x)
{
    tl_tensor *half = tl_to(x, TL_F16); // expected: half op=to shape=(1, 64) bytes=128 freed=second.c:15
    tl_tensor *back = tl_to(half, TL_F32);
    tl_release(half);
    return back;
}
