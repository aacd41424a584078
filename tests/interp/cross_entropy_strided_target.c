/* cross_entropy with a non-contiguous target: nll_loss's CPU kernel reads
 * target.contiguous(), so a strided target is copied for the call (8 bytes
 * per class index) beside the log-softmax (8 x 5 x 4 = 160) and the 4-byte
 * total weight.  Live at the call: logits 160 + targets 128 + loss 4 = 292;
 * held: 160 + 4 + 64 = 228; the peak 520 at its line.  A contiguous target
 * needs no copy: the second call holds 164 over 228 live (392). */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=520 end=0 peak-line=14
{
    tl_tensor *logits = tl_randn(TL_SHAPE(8, 5), TL_F32, TL_CPU); // expected: bytes=160
    tl_tensor *all = tl_randint(0, 5, TL_SHAPE(16), TL_CPU); // expected: bytes=128
    tl_tensor *targets = tl_slice(all, 0, 0, 16, 2); // expected: shape=(8,) strides=(2,) kind=view
    tl_tensor *loss = tl_cross_entropy(logits, targets, -100); // expected: shape=() kind=new bytes=4
    tl_release(loss);
    tl_tensor *dense = tl_contiguous(targets); // expected: strides=(1,) kind=new bytes=64
    tl_release(targets);
    tl_release(all);
    tl_tensor *loss2 = tl_cross_entropy(logits, dense, -100); // expected: shape=() kind=new bytes=4
    tl_release(loss2);
    tl_release(dense);
    tl_release(logits);
    return 0;
}
