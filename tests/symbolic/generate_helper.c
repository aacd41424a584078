/* llama2.c's generate(): steps clamped to the sequence length, a position
 * that walks the KV cache, a token sampled from the tensors (argmax read
 * back) that may stop the loop, and the printing after the exit.  The loop
 * is in a helper: it runs pos.iterations times (at most min(steps,
 * seq_len)), attention over the positions so far costs the triangular sum,
 * and verify reads the count off the run (here no token stops it: the
 * count is min(steps, seq_len)). */
// bind: steps seq_len dim pos.iterations
// values: 3 5 2 3 | 6 4 3 4 | 1 3 2 1
// args: steps seq_len dim
// symbols: steps seq_len dim pos.iterations
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

static int sample(tl_tensor *logits)
{
    tl_tensor *best = tl_argmax(logits, 0, false);
    long long tok = 0;
    tl_copy_to_host(best, &tok, sizeof tok);
    tl_release(best);
    return (int)tok;
}

static void generate(tl_tensor *cache, tl_tensor *w, int steps, int seq_len)
{
    if (steps <= 0 || steps > seq_len)
        steps = seq_len;
    int token = 1, pos = 0;
    while (pos < steps) {
        tl_tensor *row = tl_narrow(cache, 0, 0, pos + 1);
        tl_tensor *att = tl_matmul(row, w);
        tl_tensor *logits = tl_sum(att, 0, false);
        int next = sample(logits);
        tl_release(logits);
        tl_release(att);
        tl_release(row);
        pos++;
        if (next == 7)
            break;
        printf("%d\n", next);
        token = next;
    }
    (void)token;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int steps = atoi(argv[1]), seq_len = atoi(argv[2]), dim = atoi(argv[3]);
    tl_tensor *cache = tl_ones(TL_SHAPE(seq_len, dim), TL_F32, TL_CPU);
    tl_tensor *w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    generate(cache, w, steps, seq_len);
    tl_release(w);
    tl_release(cache);
    return 0;
}
