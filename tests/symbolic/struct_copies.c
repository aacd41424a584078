/* One run-time value, one symbol: a header field read with fread, copied
 * into another struct, passed to a helper by value, returned by value from
 * another, read once each way.  Every read is config.dim (or
 * config.n_layers): the tl_add of two of them cannot fail, the totals are
 * exact, and no assumption relates a size to a copy of itself.
 * (config.dim > 1 is assumed by the broadcast's rule.) */
// bind: config.dim config.n_layers
// values: 2 1 | 3 2 | 24 5
// symbols: config.dim config.n_layers
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Config {
    int dim;
    int n_layers;
} Config;

typedef struct Model {
    int version;
    Config config;
    tl_tensor *w;
} Model;

static tl_tensor *make_w(Config c)          /* c.dim: config.dim, by value */
{
    return tl_zeros(TL_SHAPE(c.n_layers, c.dim), TL_F32, TL_CPU);
}

static Config widened(Config c)             /* a struct returned by value */
{
    Config out = c;
    return out;
}

static int width_of(const Model *m) { return m->config.dim; }

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
    Model model;
    model.version = 1;
    model.config = config;                   /* a struct copy before any field is read */
    model.w = make_w(model.config);          /* (config.n_layers, config.dim) */
    Config again = widened(config);
    tl_tensor *x = tl_ones(TL_SHAPE(again.n_layers, config.dim), TL_F32, TL_CPU);
    tl_tensor *y = tl_add(model.w, x);       /* the same shape: no size mismatch */
    tl_tensor *row = tl_zeros(TL_SHAPE(width_of(&model)), TL_F32, TL_CPU);
    tl_tensor *z = tl_add(y, row);           /* broadcast over config.n_layers rows */
    tl_release(z);
    tl_release(row);
    tl_release(y);
    tl_release(x);
    tl_release(model.w);
    return 0;
}
