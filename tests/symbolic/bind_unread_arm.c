/* A field fread filled that only one arm of a branch reads: binding a size
 * that decides the branch the other way leaves it unread, and --bind of
 * its name, which the report without --bind lists, is still taken (not
 * "no run-time size of the program has that name").  Found by the
 * differential test (seed 7, program 700111).  The arms differ: peak and
 * moved are bounds. */
// bind: config.dim config.hidden
// values: 3 4 | 5 3 | 2 8
// symbols: config.dim config.hidden
// expected-bounds: moved_bytes peak_live_bytes
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Config {
    int dim;
    int hidden;
} Config;

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int header[2] = {atoi(argv[1]), atoi(argv[2])};
    FILE *f = tmpfile();
    if (!f)
        return 2;
    fwrite(header, sizeof header, 1, f);
    rewind(f);
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1)
        return 2;
    fclose(f);
    if (config.hidden % 2 == 0) {
        tl_tensor *a = tl_ones(TL_SHAPE(config.hidden), TL_F32, TL_CPU);
        tl_release(a);
    } else {
        tl_tensor *b = tl_ones(TL_SHAPE(2 * config.dim), TL_F32, TL_CPU); /* reads config.dim */
        tl_release(b);
    }
    tl_tensor *x = tl_zeros(TL_SHAPE(config.hidden, 4), TL_F32, TL_CPU);
    tl_release(x);
    return 0;
}
