/* Sizes from the command line, and the error paths of a real program: a
 * usage check, a size limit, a weight file that may be missing (the helper
 * returns NULL) and a step that jumps to its cleanup, each on a condition
 * the analysis cannot decide.  The report follows the run that goes on,
 * every total a formula and none a bound, under assumptions on the run's
 * path that it lists; the runs here go on. */
// bind: n d
// values: 1 1 | 3 5 | 7 64
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

static tl_tensor *load(const char *path, int n, int d)
{
    tl_tensor *w = tl_zeros(TL_SHAPE(d, d), TL_F32, TL_CPU);
    FILE *f = fopen(path, "rb");
    if (!f) {
        tl_release(w);
        return NULL;
    }
    fclose(f);
    (void)n;
    return w;
}

static int layer(tl_tensor *x, tl_tensor *w, int flag)
{
    int rc = -1;
    tl_tensor *h = tl_matmul(x, w);
    if (flag > 1000)
        goto fail;
    tl_tensor *a = tl_relu(h);
    tl_release(a);
    rc = 0;
fail:
    tl_release(h);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: error_paths N D\n");
        return 2;
    }
    int n = atoi(argv[1]), d = atoi(argv[2]);
    if (n > 1 << 20) {
        fprintf(stderr, "n too large\n");
        exit(1);
    }
    tl_tensor *w = load(argv[0], n, d);
    if (!w)
        return 1;
    tl_tensor *x = tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU);
    for (int l = 0; l < 4; l++)
        if (layer(x, w, argc + l) != 0)
            break;
    tl_release(x);
    tl_release(w);
    return 0;
}
