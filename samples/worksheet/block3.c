/*
 * Worksheet Block 3, "the silent cast":
 *
 *   ids = torch.randint(0, 32000, (4, 2048), device="cuda")  # int64 default
 *   emb = torch.randn(32000, 4096, dtype=torch.bfloat16, device="cuda")
 *   hidden = emb[ids]          # gather
 *   hidden = hidden.float()    # "for stability"
 *   logits = hidden @ torch.randn(4096, 32000, dtype=torch.float32, device="cuda")
 *
 * Python drops the bf16 hidden when the name is rebound; in C that is an
 * explicit release.  emb is 250 MiB, hidden 64 MiB, the f32 hidden 128 MiB.
 * BATCH, SEQ, VOCAB and HIDDEN default to the worksheet's sizes.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CUDA
#endif
#ifndef BATCH
#define BATCH 4
#endif
#ifndef SEQ
#define SEQ 2048
#endif
#ifndef VOCAB
#define VOCAB 32000
#endif
#ifndef HIDDEN
#define HIDDEN 4096
#endif

int main(void)
{
    tl_tensor *ids = tl_randint(0, VOCAB, TL_SHAPE(BATCH, SEQ), DEVICE);
    tl_tensor *emb = tl_randn(TL_SHAPE(VOCAB, HIDDEN), TL_BF16, DEVICE);
    tl_tensor *hidden = tl_index(emb, ids);
    tl_tensor *hidden_f32 = tl_to(hidden, TL_F32);
    tl_release(hidden);
    hidden = hidden_f32;
    tl_tensor *w_out = tl_randn(TL_SHAPE(HIDDEN, VOCAB), TL_F32, DEVICE);
    tl_tensor *logits = tl_matmul(hidden, w_out);
    (void)logits;
    return 0;
}
