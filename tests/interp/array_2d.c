/* A 2-D array of handles: cache[0][l] keys (f32), cache[1][l] values (f16). */
#include <tensorlint/tensor.h>

#define N_LAYERS 3

int main(void) // expected-func: peak=176 end=0 moved=192 peak-line=14 calls=8
{
    tl_tensor *cache[2][N_LAYERS];
    for (int l = 0; l < N_LAYERS; l++) {
        cache[0][l] = tl_zeros(TL_SHAPE(4, 2), TL_F32, TL_CPU); // expected: op=zeros shape=(4, 2) dtype=f32 bytes=32 exec=3 freed=18
        cache[1][l] = tl_zeros(TL_SHAPE(4, 2), TL_F16, TL_CPU); // expected: op=zeros shape=(4, 2) dtype=f16 bytes=16 exec=3 freed=19
    }
    tl_tensor *k = tl_select(cache[0][2], 0, 3); // expected: k shape=(2,) strides=(1,) offset=6 dtype=f32 kind=view bytes=32 moved=0
    tl_tensor *v = tl_to(cache[1][1], TL_F32); // expected: v shape=(4, 2) strides=(2, 1) dtype=f32 kind=new bytes=32 moved=48 freed=16
    tl_release(k);
    tl_release(v);
    for (int l = 0; l < N_LAYERS; l++) {
        tl_release(cache[0][l]);
        tl_release(cache[1][l]);
    }
    return 0;
}
