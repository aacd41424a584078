/* Clean: bf16 weights and activations end to end; the logits stay bf16 and
 * only the per-row statistics are small. */
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *ids = tl_randint(0, 32000, TL_SHAPE(4, 512), TL_CUDA);
    tl_tensor *emb = tl_randn(TL_SHAPE(32000, 1024), TL_BF16, TL_CUDA);
    tl_tensor *hidden = tl_index(emb, ids);
    tl_release(ids);
    tl_tensor *w = tl_randn(TL_SHAPE(1024, 1024), TL_BF16, TL_CUDA);
    tl_tensor *h2 = tl_matmul(hidden, w);
    tl_release(hidden);
    tl_release(w);
    tl_tensor *act = tl_relu(h2);
    tl_release(h2);
    tl_tensor *proj = tl_t(emb);
    tl_tensor *logits = tl_matmul(act, proj);
    tl_release(proj);
    tl_release(emb);
    tl_release(act);
    tl_tensor *probs = tl_softmax(logits, -1);
    tl_release(logits);
    tl_tensor *mean = tl_mean(probs, -1, false);
    tl_release(probs);
    tl_release(mean);
    return 0;
}
