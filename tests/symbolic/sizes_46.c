/* 46 sizes read with one fread from a checkpoint's header, 23 widths then
 * their 23 head counts, and every one compared: each width's q is viewed
 * as its heads' pairs (n_heads, head_size/2, 2), llama2.c's RoPE, which
 * compares the width with its heads.  The widths are read first (x's
 * shape), so at the generic point each is a multiple of every head count,
 * a head size there has many pairs.  46 sizes compared, each placed at the
 * point in the order read: every view is followed and every total is
 * exact, with no note. */
// bind: c.d0 c.d1 c.d2 c.d3 c.d4 c.d5 c.d6 c.d7 c.d8 c.d9 c.d10 c.d11 c.d12 c.d13 c.d14 c.d15 c.d16 c.d17 c.d18 c.d19 c.d20 c.d21 c.d22 c.h0 c.h1 c.h2 c.h3 c.h4 c.h5 c.h6 c.h7 c.h8 c.h9 c.h10 c.h11 c.h12 c.h13 c.h14 c.h15 c.h16 c.h17 c.h18 c.h19 c.h20 c.h21 c.h22
// values: 12 12 20 28 30 8 30 12 12 20 28 30 8 30 12 12 20 28 30 8 30 12 12 3 2 5 7 3 2 5 3 2 5 7 3 2 5 3 2 5 7 3 2 5 3 2 | 28 30 8 30 12 12 20 28 30 8 30 12 12 20 28 30 8 30 12 12 20 28 30 7 3 2 5 3 2 5 7 3 2 5 3 2 5 7 3 2 5 3 2 5 7 3 | 30 12 12 20 28 30 8 30 12 12 20 28 30 8 30 12 12 20 28 30 8 30 12 5 3 2 5 7 3 2 5 3 2 5 7 3 2 5 3 2 5 7 3 2 5 3
// setup: tests/symbolic/write_ints.py {file} c.d0 c.d1 c.d2 c.d3 c.d4 c.d5 c.d6 c.d7 c.d8 c.d9 c.d10 c.d11 c.d12 c.d13 c.d14 c.d15 c.d16 c.d17 c.d18 c.d19 c.d20 c.d21 c.d22 c.h0 c.h1 c.h2 c.h3 c.h4 c.h5 c.h6 c.h7 c.h8 c.h9 c.h10 c.h11 c.h12 c.h13 c.h14 c.h15 c.h16 c.h17 c.h18 c.h19 c.h20 c.h21 c.h22
// args: {file}
#include <tensorlint/tensor.h>
#include <stdio.h>

typedef struct Header {
    int d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15, d16, d17, d18, d19, d20, d21, d22;
    int h0, h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13, h14, h15, h16, h17, h18, h19, h20, h21, h22;
} Header;

/* q of width dim, its heads' pairs scaled through a view of them. */
static tl_tensor *rotate(int dim, int n_heads)
{
    int head_size = dim / n_heads;
    tl_tensor *q = tl_ones(TL_SHAPE(dim), TL_F32, TL_CPU);
    tl_tensor *pairs = tl_view(q, TL_SHAPE(n_heads, head_size / 2, 2));
    tl_mul_scalar_(pairs, 0.5);
    tl_release(pairs);
    return q;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 2;
    Header c;
    if (fread(&c, sizeof c, 1, f) != 1)
        return 2;
    fclose(f);
    /* the widths first: each read before every head count */
    tl_tensor *x = tl_zeros(TL_SHAPE(c.d0 + c.d1 + c.d2 + c.d3 + c.d4 + c.d5 + c.d6 + c.d7 + c.d8 + c.d9 + c.d10 + c.d11 + c.d12 + c.d13 + c.d14 + c.d15 + c.d16 + c.d17 + c.d18 + c.d19 + c.d20 + c.d21 + c.d22), TL_F32, TL_CPU);
    tl_tensor *q[23];
    q[0] = rotate(c.d0, c.h0);
    q[1] = rotate(c.d1, c.h1);
    q[2] = rotate(c.d2, c.h2);
    q[3] = rotate(c.d3, c.h3);
    q[4] = rotate(c.d4, c.h4);
    q[5] = rotate(c.d5, c.h5);
    q[6] = rotate(c.d6, c.h6);
    q[7] = rotate(c.d7, c.h7);
    q[8] = rotate(c.d8, c.h8);
    q[9] = rotate(c.d9, c.h9);
    q[10] = rotate(c.d10, c.h10);
    q[11] = rotate(c.d11, c.h11);
    q[12] = rotate(c.d12, c.h12);
    q[13] = rotate(c.d13, c.h13);
    q[14] = rotate(c.d14, c.h14);
    q[15] = rotate(c.d15, c.h15);
    q[16] = rotate(c.d16, c.h16);
    q[17] = rotate(c.d17, c.h17);
    q[18] = rotate(c.d18, c.h18);
    q[19] = rotate(c.d19, c.h19);
    q[20] = rotate(c.d20, c.h20);
    q[21] = rotate(c.d21, c.h21);
    q[22] = rotate(c.d22, c.h22);
    for (int i = 0; i < 23; i++)
        tl_release(q[i]);
    tl_release(x);
    return 0;
}
