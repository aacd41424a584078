/* uninitialized-handle: a tensor variable declared without an initializer
 * and never set, used (released, an operand, viewed) -- each next to the
 * ways a handle is set that must stay quiet: an out-parameter, memset,
 * static storage (NULL), a loop, a struct field, a function pointer, a
 * pointer to it the analysis does not follow. */
#include <stdlib.h>
#include <string.h>
#include <tensorlint/tensor.h>

typedef struct pair { tl_tensor *a, *b; } pair;

static void make(tl_tensor **out) { *out = tl_ones(TL_SHAPE(2, 2), TL_F32, TL_CPU); }
static void (*maker)(tl_tensor **) = make;
static tl_tensor *global_t;

static void helper_never_set(void)
{
    tl_tensor *h;
    tl_release(h); // expected-error {{[uninitialized-handle]}}
}

int main(int argc, char **argv)
{
    (void)argv;
    tl_tensor *y;
    tl_release(y); // expected-error {{[uninitialized-handle]}}
    tl_tensor *v;
    tl_tensor *r = tl_relu(v); // expected-error {{[uninitialized-handle]}}
    tl_tensor *w;
    tl_tensor *t = tl_transpose(w, 0, 1); // expected-error {{[uninitialized-handle]}}
    helper_never_set();

    tl_tensor *out; /* an out-parameter */
    make(&out);
    tl_release(out);
    tl_tensor *fp; /* through a function pointer */
    maker(&fp);
    tl_release(fp);
    tl_tensor *z; /* memset: NULL, which tl_release takes */
    memset(&z, 0, sizeof z);
    tl_release(z);
    static tl_tensor *s; /* static storage: NULL */
    tl_release(s);
    tl_release(global_t);
    tl_tensor *n = NULL;
    tl_release(n);
    tl_tensor *later; /* set in a loop */
    for (int i = 0; i < 2; i++) {
        later = tl_ones(TL_SHAPE(2), TL_F32, TL_CPU);
        if (i == 0)
            tl_release(later);
    }
    tl_release(later);
    tl_tensor *maybe; /* set on one path (argc): not "never set" */
    if (argc > 5) // expected-note {{[unknown-branch]}}
        maybe = tl_ones(TL_SHAPE(2), TL_F32, TL_CPU);
    else
        maybe = NULL;
    tl_release(maybe);
    pair *p = calloc(1, sizeof *p); /* fields calloc zeroed */
    tl_release(p->a);
    p->b = tl_ones(TL_SHAPE(3), TL_F32, TL_CPU);
    tl_release(p->b);
    free(p);
    tl_tensor *via; /* a pointer to it, set through the pointer */
    tl_tensor **pp = &via;
    *pp = tl_ones(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_release(via);
    (void)r, (void)t;
    return 0;
}
