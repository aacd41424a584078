/*
 * Lab 3, the fp16 cliff and why bf16 lives below it (seeds/tensor-memory-chapter.txt):
 *   torch.tensor(70000.0, dtype=torch.float16)   # inf: 65504 is the ceiling
 *   torch.tensor(1e-8,    dtype=torch.float16)   # 0: below the subnormal floor
 *   torch.tensor(1e-8,    dtype=torch.bfloat16)  # 1.0012e-08: a normal, all 7 bits
 *   torch.tensor(70000.0, dtype=torch.bfloat16)  # 70144: mid-range, no drama
 * then the loss-scale arithmetic: 1e-8 * 65536 in fp16 is rescued (6.55e-4),
 * 10.0 * 65536 overflows to inf.
 */
#include <stdio.h>
#include <tensorlint/tensor.h>

static void show(const char *what, double value, tl_dtype dtype)
{
    tl_tensor *t = tl_scalar(value, dtype, TL_CPU);
    printf("%-32s %.5g\n", what, tl_get(t, TL_SHAPE0));
    tl_release(t);
}

int main(void)
{
    show("tensor(70000.0, float16)", 70000.0, TL_F16);
    show("tensor(1e-8, float16)", 1e-8, TL_F16);
    show("tensor(1e-8, bfloat16)", 1e-8, TL_BF16);
    show("tensor(70000.0, bfloat16)", 70000.0, TL_BF16);
    show("1e-8 * 65536 in float16", 1e-8 * 65536, TL_F16);
    show("10.0 * 65536 in float16", 10.0 * 65536, TL_F16);
    return 0;
}
