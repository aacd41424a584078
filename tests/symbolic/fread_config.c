/* A checkpoint header read with fread: into a stack struct (config.dim),
 * a heap struct (hp->n_layers) and one int at a time (vocab).  The program
 * writes the header from its arguments first, so the test can run it. */
// bind: config.dim config.hidden_dim hp->n_layers vocab
// values: 1 3 1 5 | 8 24 2 13 | 64 96 3 97
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Config {
    int dim;
    int hidden_dim;
    int n_layers;
} Config;

typedef struct Layer {
    tl_tensor *w1, *w2;
} Layer;

int main(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    int header[4] = {atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), atoi(argv[4])};
    FILE *f = tmpfile();
    if (!f)
        return 2;
    fwrite(header, sizeof header, 1, f);
    rewind(f);
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1)
        return 2;
    rewind(f);
    Config *hp = malloc(sizeof *hp);
    if (!hp || fread(hp, sizeof *hp, 1, f) != 1)
        return 2;
    int vocab;
    if (fread(&vocab, sizeof vocab, 1, f) != 1)
        return 2;
    fclose(f);
    tl_tensor *emb = tl_zeros(TL_SHAPE(vocab, config.dim), TL_F32, TL_CPU);
    Layer layers[3];
    tl_tensor *norms = tl_ones(TL_SHAPE(hp->n_layers, config.dim), TL_F32, TL_CPU);
    tl_tensor *x = tl_zeros(TL_SHAPE(4, config.dim), TL_F32, TL_CPU);
    tl_tensor *w1 = tl_randn(TL_SHAPE(config.dim, config.hidden_dim), TL_F32, TL_CPU);
    tl_tensor *h = tl_matmul(x, w1);
    tl_tensor *g = tl_silu(h);
    layers[0].w1 = w1;
    layers[0].w2 = g;
    tl_release(h);
    tl_release(x);
    tl_release(layers[0].w1);
    tl_release(layers[0].w2);
    tl_release(emb);
    tl_release(norms);
    free(hp);
    return 0;
}
