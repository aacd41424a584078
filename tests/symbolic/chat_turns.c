/* A chat loop as llama2.c's run.c writes it: the user's turn (text
 * tokenized into a buffer of unknown contents) in an arm no size decides,
 * then one position of the model per iteration.  The two probe iterations
 * of the summary leave integers at places the state before them did not
 * hold (buffer slots that state read as not known): run-time values after
 * the loop, so the loop is summarised and every total exact (it was
 * analysed for one iteration, every total not bounded). */
// bind: steps dim
// values: 1 3 | 5 2 | 7 4
// args: steps dim
// symbols: steps dim
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void encode(const char *text, int *tokens, int *n)
{
    *n = 0;
    tokens[(*n)++] = 1;
    for (const char *c = text; *c; c++)
        tokens[(*n)++] = (unsigned char)*c;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 8;
    int dim = argc > 2 ? atoi(argv[2]) : 4;
    const char *user = argc > 3 ? argv[3] : "hi";
    int *prompt = malloc(80 * sizeof *prompt);
    int n_prompt = 0, user_idx = 0, user_turn = 1, next = 0, token, pos = 0;
    tl_tensor *w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    tl_tensor *cache = tl_zeros(TL_SHAPE(steps, dim), TL_F32, TL_CPU);
    while (pos < steps) {
        if (user_turn) {
            encode(user, prompt, &n_prompt);
            user_idx = 0;
            user_turn = 0;
        }
        token = user_idx < n_prompt ? prompt[user_idx++] : next;
        if (token == 2)
            user_turn = 1;
        tl_tensor *x = tl_full(TL_SHAPE(dim), (double)token, TL_F32, TL_CPU);
        tl_tensor *row = tl_select(cache, 0, pos);
        tl_copy_(row, x);
        tl_tensor *y = tl_matmul(w, x);
        float out[1];
        tl_tensor *first = tl_narrow(y, 0, 0, 1);
        tl_copy_to_host(first, out, sizeof out);
        next = out[0] > 100.0f ? 2 : 3;
        tl_release(first);
        tl_release(y);
        tl_release(row);
        tl_release(x);
        pos++;
    }
    tl_release(cache);
    tl_release(w);
    free(prompt);
    return 0;
}
