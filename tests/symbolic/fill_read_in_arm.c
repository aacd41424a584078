/* A field fread filled, read in one arm of a branch the sizes do not
 * decide and not in the other: after the join it is still the one symbol
 * config.dim (the fill's content is read once, whichever arm read it), not
 * a second config.dim#2 that binding hidden would make disappear (the
 * branch then decided, nothing joins).  Found by the differential test
 * (seed 7, program 700035).  The arms differ: peak and moved are bounds. */
// bind: config.dim config.hidden
// values: 3 4 | 5 3 | 2 7
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
    tl_tensor *x = tl_zeros(TL_SHAPE(config.dim, 4), TL_F32, TL_CPU); /* config.dim, not #2 */
    tl_release(x);
    return 0;
}
