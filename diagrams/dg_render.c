/*
 * dg_render.c: the Graphviz side of the diagrams: output formats, the gvc
 * context with its error capture, attribute helpers, and rendering into
 * memory.
 *
 * Graphviz reports problems through agerr(), in fragments ("Error", ": ",
 * "message\n"); a callback installed for the life of the context gathers
 * them into the context's error text.  agerr has no user pointer, so the
 * context that collects is a file-level pointer: one context at a time,
 * which gvc requires anyway (it is not thread-safe).
 *
 * DOT is the graph as built, written by agwrite with no layout: it does
 * not depend on fonts or on the layout engine's version, so golden tests
 * can compare it.  SVG, PNG and PDF are laid out by dot and rendered by
 * gvRenderData; PNG is drawn at 144 dpi, sharp enough for a slide.
 * Rendering goes to memory first, so a failed render leaves no half file;
 * the output helpers at the end write it (or check early that they can).
 */
#include "dg_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct dg_ctx {
    GVC_t *gvc;
    dg_buf err;
    agusererrf prev_errf;
};

static dg_ctx *dg_collecting; /* the context whose error text agerr fills */

static const char *const dg_format_names[DG_N_FORMATS] = {"dot", "svg", "png", "pdf"};

bool dg_format_parse(const char *name, dg_format *out)
{
    for (int f = 0; f < DG_N_FORMATS; f++) {
        if (strcasecmp(name, dg_format_names[f]) == 0) {
            *out = (dg_format)f;
            return true;
        }
    }
    if (strcasecmp(name, "gv") == 0) {
        *out = DG_FORMAT_DOT;
        return true;
    }
    return false;
}

bool dg_format_of_path(const char *path, dg_format *out)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot[1] == '\0')
        return false;
    return dg_format_parse(dot + 1, out);
}

const char *dg_format_name(dg_format f)
{
    return f >= 0 && f < DG_N_FORMATS ? dg_format_names[f] : "?";
}

static int dg_errf(char *text)
{
    if (dg_collecting)
        dg_buf_puts(&dg_collecting->err, text);
    return 0;
}

dg_ctx *dg_ctx_new(void)
{
    dg_ctx *c = tl_xcalloc(1, sizeof *c);
    c->prev_errf = agseterrf(dg_errf);
    dg_collecting = c;
    dg_buf_puts(&c->err, "");
    c->gvc = gvContext();
    if (!c->gvc) /* Graphviz makes a context unless its allocator fails */
        tl_out_of_memory(0);
    return c;
}

void dg_ctx_free(dg_ctx *c)
{
    if (!c)
        return;
    if (c->gvc)
        gvFreeContext(c->gvc);
    agseterrf(c->prev_errf);
    if (dg_collecting == c)
        dg_collecting = NULL;
    dg_buf_free(&c->err);
    free(c);
}

const char *dg_ctx_error(const dg_ctx *c)
{
    return c && c->err.s ? c->err.s : "";
}

/* cgraph copies names and values (agstrdup) and never writes through the
 * pointers it is given; its API only lacks const.  These are the one place
 * the diagrams cast it away.  cgraph returns NULL from a constructor only
 * when its allocator failed (names are unique: ids_map below): that is the
 * tool's out-of-memory exit. */
void dg_set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

void dg_declare(Agraph_t *g, int kind, const char *name, const char *dflt)
{
    agattr(g, kind, (char *)name, (char *)dflt);
}

void dg_set_html(Agraph_t *g, void *obj, const char *html)
{
    char *h = agstrdup_html(agroot(g), (char *)html);
    agsafeset(obj, (char *)"label", h, (char *)"");
    agstrfree(agroot(g), h);
}

Agnode_t *dg_node(Agraph_t *g, const char *name)
{
    Agnode_t *n = agnode(g, (char *)name, 1);
    if (!n)
        tl_out_of_memory(0);
    return n;
}

Agraph_t *dg_subgraph(Agraph_t *g, const char *name)
{
    Agraph_t *s = agsubg(g, (char *)name, 1);
    if (!s)
        tl_out_of_memory(0);
    return s;
}

/* Object ids in creation order.  cgraph keeps subgraphs, nodes and edges
 * ordered by id, and its default discipline makes a named object's id the
 * address of its interned name: the DOT written would then follow the
 * allocator, not the program.  Here a name's id is its creation number
 * (even, as cgraph wants for named objects; anonymous ones are odd). */
typedef struct dg_ids {
    Agraph_t *g;     /* the root graph: names are its interned strings */
    char **names;    /* by id / 2 */
    size_t n, cap;
    IDTYPE anon;     /* anonymous objects made */
} dg_ids;

static void *ids_open(Agraph_t *g, Agdisc_t *disc)
{
    (void)disc;
    dg_ids *t = tl_xcalloc(1, sizeof(dg_ids));
    t->g = g;
    return t;
}

static long ids_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
    dg_ids *t = state;
    (void)objtype;
    if (!str) {
        *id = t->anon++ * 2 + 1;
        return 1;
    }
    for (size_t k = t->n; k-- > 0;) /* one id per name, whatever the object type */
        if (strcmp(t->names[k], str) == 0) {
            *id = (IDTYPE)k * 2;
            return 1;
        }
    if (!createflag)
        return 0;
    tl_xgrow(t->names, &t->cap, (size_t)t->n + 1, 64);
    t->names[t->n] = agstrdup(t->g, str); /* interned: cgraph reads its flags (HTML or not) */
    if (!t->names[t->n])
        tl_out_of_memory(0);
    *id = (IDTYPE)t->n++ * 2;
    return 1;
}

static long ids_alloc(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    (void)id;
    return 0; /* only ids this discipline made are used */
}

static void ids_free(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    (void)id;
}

static char *ids_print(void *state, int objtype, IDTYPE id)
{
    dg_ids *t = state;
    (void)objtype;
    return id % 2 == 0 && id / 2 < t->n ? t->names[id / 2] : NULL;
}

/* The names go with the graph's string dictionary, which agclose frees. */
static void ids_close(void *state)
{
    dg_ids *t = state;
    free(t->names);
    free(t);
}

static void ids_register(void *state, int objtype, void *obj)
{
    (void)state;
    (void)objtype;
    (void)obj;
}

static Agiddisc_t dg_id_disc = {ids_open, ids_map, ids_alloc, ids_free, ids_print, ids_close,
                                ids_register};

Agraph_t *dg_graph_open(const char *name)
{
    static Agdisc_t disc;
    disc.mem = &AgMemDisc;
    disc.id = &dg_id_disc;
    disc.io = &AgIoDisc;
    Agraph_t *g = agopen((char *)name, Agdirected, &disc);
    if (!g)
        tl_out_of_memory(0);
    return g;
}

static dg_status write_dot(Agraph_t *g, char **data, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *mem = tl_xmemstream(&buf, &n);
    int rc = agwrite(g, mem);
    tl_xmemstream_close(mem);
    if (rc != 0) {
        free(buf);
        return DG_RENDER_FAILED;
    }
    *data = buf;
    *len = n;
    return DG_OK;
}

static dg_status render_laid_out(dg_ctx *c, Agraph_t *g, dg_format fmt, char **data,
                                 size_t *len)
{
    char *out = NULL;
    unsigned n = 0;
    if (fmt == DG_FORMAT_PNG)
        dg_set(g, "dpi", "144");
    if (gvLayout(c->gvc, g, "dot") != 0)
        return DG_RENDER_FAILED;
    int rc = gvRenderData(c->gvc, g, dg_format_names[fmt], &out, &n);
    if (rc == 0 && out) {
        *data = tl_xcalloc((size_t)n + 1, 1);
        memcpy(*data, out, n);
        *len = n;
    } else {
        dg_buf_printf(&c->err, "Error: Graphviz could not render %s (when it says the format "
                      "is not recognized, its plugin list config6a is missing: `dot -c` as "
                      "root rebuilds it)\n", dg_format_names[fmt]);
    }
    if (out)
        gvFreeRenderData(out);
    gvFreeLayout(c->gvc, g);
    return rc == 0 && *data ? DG_OK : DG_RENDER_FAILED;
}

dg_status dg_render_graph(dg_ctx *c, Agraph_t *g, dg_format fmt, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    dg_collecting = c;
    if (fmt == DG_FORMAT_DOT)
        return write_dot(g, data, len);
    return render_laid_out(c, g, fmt, data, len);
}

/* ---- output files ---- */

bool dg_output_writable(const char *path)
{
    if (access(path, F_OK) == 0)
        return access(path, W_OK) == 0;
    char *dir = tl_xstrdup(path), *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    bool ok = access(slash ? dir : ".", W_OK | X_OK) == 0;
    int saved = errno;
    free(dir);
    errno = ok ? 0 : saved;
    return ok;
}

int dg_output_write(const char *path, const char *data, size_t len)
{
    FILE *f = path ? fopen(path, "wb") : stdout;
    if (!f)
        return errno ? errno : EIO;
    size_t n = fwrite(data, 1, len, f);
    int err = n == len ? 0 : errno ? errno : EIO;
    if (path ? fclose(f) != 0 : fflush(f) != 0)
        err = err ? err : errno ? errno : EIO;
    return err;
}
