/* A training step's ops: the loss (cross_entropy holds its log-softmax,
 * 16 x 32 x 4 = 2048 bytes, and nll_loss's 4-byte total weight while it
 * runs: the peak is 2180 live + 2052 held = 4232 at its line, 8 bytes over
 * the log_softmax line's 4224), an embedding's
 * backward (index_add_ into the gradient: nothing allocated) and an AdamW
 * update written in place (lerp_, addcmul_, sqrt_, addcdiv_: nothing
 * allocated but the one clone). */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=4232 end=0 peak-line=16
{
    tl_tensor *logits = tl_randn(TL_SHAPE(16, 32), TL_F32, TL_CPU); // expected: bytes=2048
    tl_tensor *targets = tl_randint(0, 32, TL_SHAPE(16), TL_CPU); // expected: bytes=128
    tl_tensor *logp = tl_log_softmax(logits, 1); // expected: shape=(16, 32) strides=(32, 1) kind=new bytes=2048
    tl_release(logp);
    tl_tensor *loss = tl_cross_entropy(logits, targets, -100); // expected: shape=() dtype=f32 kind=new bytes=4
    tl_release(loss);
    tl_release(logits);

    tl_tensor *wte_grad = tl_zeros(TL_SHAPE(32, 2), TL_F32, TL_CPU); // expected: bytes=256
    tl_tensor *dout = tl_randn(TL_SHAPE(16, 2), TL_F32, TL_CPU); // expected: bytes=128
    tl_index_add_(wte_grad, 0, targets, dout);
    tl_release(dout);
    tl_release(targets);

    tl_tensor *p = tl_randn(TL_SHAPE(32, 2), TL_F32, TL_CPU);
    tl_tensor *m = tl_zeros(TL_SHAPE(32, 2), TL_F32, TL_CPU);
    tl_tensor *v = tl_zeros(TL_SHAPE(32, 2), TL_F32, TL_CPU);
    tl_lerp_(m, wte_grad, 0.1);
    tl_mul_scalar_(v, 0.999);
    tl_addcmul_(v, wte_grad, wte_grad, 0.001);
    tl_tensor *denom = tl_clone(v); // expected: kind=new bytes=256
    tl_sqrt_(denom);
    tl_add_scalar_(denom, 1e-8);
    tl_mul_scalar_(p, 1.0 - 0.001 * 0.01);
    tl_addcdiv_(p, m, denom, -0.001);
    tl_tensor *act = tl_gelu_tanh(p); // expected: shape=(32, 2) kind=new bytes=256
    tl_release(act);
    tl_release(denom);
    tl_release(v);
    tl_release(m);
    tl_release(p);
    tl_release(wte_grad);
    return 0;
}
