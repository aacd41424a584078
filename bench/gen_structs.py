#!/usr/bin/env python3
"""Generate a program that executes about N API calls over struct arrays:
a Model struct holding an array of Layer structs (handles and sizes in
fields), filled by an init function through a pointer, then loops of 1,000
iterations that read the weights as m->layers[i % L].w, store results into
a run-state struct's per-layer array and release them, 5 calls per
iteration.  The interpreter's cost per executed call when every operand is
a place, to set beside gen_loop.py's locals.
usage: gen_structs.py N > prog.c"""
import sys

n = int(sys.argv[1])
loops = max(1, n // 5000)
print(f"""#include <tensorlint/tensor.h>

#define L 8

typedef struct {{ tl_tensor *w; tl_tensor *b; int d; }} Layer;
typedef struct {{ Layer layers[L]; int n_layers; }} Model;
typedef struct {{ tl_tensor *h[L]; tl_tensor *x; }} State;

static void init_model(Model *m, int d)
{{
    m->n_layers = L;
    for (int l = 0; l < m->n_layers; l++) {{
        m->layers[l].d = d;
        m->layers[l].w = tl_randn(TL_SHAPE(d, d), TL_F32, TL_CPU);
        m->layers[l].b = tl_zeros(TL_SHAPE(d), TL_F32, TL_CPU);
    }}
}}

static void free_model(Model *m)
{{
    for (int l = 0; l < m->n_layers; l++) {{
        tl_release(m->layers[l].w);
        tl_release(m->layers[l].b);
    }}
}}

static void step(Model *m, State *s, int i)
{{
    Layer *layer = &m->layers[i % m->n_layers];
    tl_tensor *y = tl_matmul(s->x, layer->w);
    tl_tensor *z = tl_add(y, layer->b);
    s->h[i % L] = tl_relu(z);
    tl_tensor *t = tl_transpose(s->h[i % L], 0, 1);
    tl_tensor *c = tl_contiguous(t);
    tl_release(y);
    tl_release(z);
    tl_release(t);
    tl_release(c);
    tl_release(s->h[i % L]);
}}

int main(void)
{{
    Model model;
    State state;
    init_model(&model, 32);
    state.x = tl_randn(TL_SHAPE(4, 32), TL_F32, TL_CPU);""")
for k in range(loops):
    print(f"""    for (int i = 0; i < 1000; i++)
        step(&model, &state, i + {k});""")
print("""    tl_release(state.x);
    free_model(&model);
    return 0;
}""")
