/* Helpers that leave early on a condition the analysis cannot decide: a
 * load that returns NULL when its file is missing, a step that jumps to its
 * cleanup, called in a loop.  The run that goes on is followed (the helpers'
 * results and what they release), so the caller's checks of those results
 * are decided and silent.  A helper whose arms both return counts both. */
#include <stdio.h>
#include <tensorlint/tensor.h>

static tl_tensor *load(const char *path)
{
    tl_tensor *w = tl_zeros(TL_SHAPE(8, 8), TL_F32, TL_CPU); // expected: w bytes=256 freed=57
    FILE *f = fopen(path, "rb");
    if (!f) { // expected-assumption {{!f is false}}
        tl_release(w);
        return NULL;
    }
    fclose(f);
    return w;
}

static int step(tl_tensor *w, int flag)
{
    int rc = -1;
    tl_tensor *a = tl_relu(w); // expected: a bytes=256 moved=512 exec=3 freed=31
    if (flag > 100) // expected-assumption {{goto fail}}
        goto fail;
    tl_tensor *b = tl_exp(a); // expected: b bytes=256 exec=3 freed=28
    tl_release(b);
    rc = 0;
fail:
    tl_release(a);
    return rc;
}

static int pick(int flag) // expected-func: peak=320 end=256 moved<=128
{
    if (flag > 200) {
        tl_tensor *t = tl_ones(TL_SHAPE(16), TL_F32, TL_CPU);
        tl_release(t);
        return 1;
    } else {
        tl_tensor *u = tl_zeros(TL_SHAPE(16), TL_F32, TL_CPU); // expected: u bytes=64 freed=43
        tl_release(u);
        return 2;
    }
}

int main(int argc, char **argv) // expected-func: peak=768 end=0 moved<=3456 peak-line=54
{
    tl_tensor *w = load(argv[0]);
    if (!w) /* the run that goes on has its tensor: decided */
        return 1;
    for (int i = 0; i < 3; i++)
        if (step(w, argc + i) != 0) /* 0 on the path followed: decided */
            break;
    int p = pick(argc);
    tl_release(w);
    return p == 2 ? 0 : 1;
}
