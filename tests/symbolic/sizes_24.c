/* 24 sizes read at run time (and argc), the width and the head count last:
 * only the two compared take places at the generic point.  The view
 * of q as (n_heads, head_size/2, 2) needs a comparison of them that it
 * decides, assuming head_size even (true at each binding below): every
 * total is exact. */
// bind: s0 s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 s12 s13 s14 s15 s16 s17 s18 s19 s20 s21 c.dim c.n_heads
// values: 1 3 5 2 4 1 3 5 2 4 1 3 5 2 4 1 3 5 2 4 1 3 4 2 | 4 1 3 5 2 4 1 3 5 2 4 1 3 5 2 4 1 3 5 2 4 1 24 4 | 2 4 1 3 5 2 4 1 3 5 2 4 1 3 5 2 4 1 3 5 2 4 12 3
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct Config {
    int dim;
    int n_heads;
} Config;

int main(int argc, char **argv)
{
    if (argc < 25)
        return 2;
    int s0 = atoi(argv[1]);
    int s1 = atoi(argv[2]);
    int s2 = atoi(argv[3]);
    int s3 = atoi(argv[4]);
    int s4 = atoi(argv[5]);
    int s5 = atoi(argv[6]);
    int s6 = atoi(argv[7]);
    int s7 = atoi(argv[8]);
    int s8 = atoi(argv[9]);
    int s9 = atoi(argv[10]);
    int s10 = atoi(argv[11]);
    int s11 = atoi(argv[12]);
    int s12 = atoi(argv[13]);
    int s13 = atoi(argv[14]);
    int s14 = atoi(argv[15]);
    int s15 = atoi(argv[16]);
    int s16 = atoi(argv[17]);
    int s17 = atoi(argv[18]);
    int s18 = atoi(argv[19]);
    int s19 = atoi(argv[20]);
    int s20 = atoi(argv[21]);
    int s21 = atoi(argv[22]);
    Config c;
    c.dim = atoi(argv[23]);
    c.n_heads = atoi(argv[24]);
    int total = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9 + s10 + s11 + s12 + s13 + s14 + s15 + s16 + s17 + s18 + s19 + s20 + s21;
    tl_tensor *all = tl_zeros(TL_SHAPE(total), TL_F32, TL_CPU);
    int head_size = c.dim / c.n_heads;
    tl_tensor *q = tl_zeros(TL_SHAPE(c.dim), TL_F32, TL_CPU);
    tl_tensor *pairs = tl_view(q, TL_SHAPE(c.n_heads, head_size / 2, 2));
    tl_tensor *sq = tl_mul(pairs, pairs);
    tl_release(sq);
    tl_release(pairs);
    tl_release(q);
    tl_release(all);
    return 0;
}
