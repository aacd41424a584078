/*
 * dg_range.c: which events of the report's log show a function's execution.
 *
 * The log holds the runs of every root, one after the other, in the order
 * of r->funcs.  Events do not name their root, so the runs are recovered
 * from the counts: a root's n_calls is the number of API calls of its run,
 * each of which logged one CALL event, and a run cannot begin with a
 * release or a lost handle (it holds nothing yet).  So root k's run starts
 * at the CALL event numbered by the calls of the roots before it and ends
 * where the next run starts.  A truncated log (n_events_dropped) only
 * shortens the last runs.
 *
 * A function that is not a root is shown by its own calls (events whose
 * func is it), in the first run that executes it.
 *
 * Which function a diagram shows by default is decided here too: main,
 * else the first root.
 */
#include "dg_internal.h"

#include <stdlib.h>

/* Index of the CALL event numbered n (0-based), or n_events. */
static int64_t nth_call(const an_report *r, int64_t n)
{
    int64_t seen = 0;
    for (int64_t e = 0; e < r->n_events; e++)
        if (r->events[e].kind == AN_EV_CALL && seen++ == n)
            return e;
    return r->n_events;
}

/* The run of root number k of r->funcs: events [*lo, *hi). */
static void root_run(const an_report *r, int k, int64_t *lo, int64_t *hi)
{
    int64_t before = 0;
    for (int j = 0; j < k; j++)
        if (r->funcs[j].is_root)
            before += r->funcs[j].n_calls;
    *lo = before == 0 ? 0 : nth_call(r, before);
    *hi = r->n_events;
    for (int j = k + 1; j < r->n_funcs; j++) {
        if (r->funcs[j].is_root) {
            *hi = nth_call(r, before + r->funcs[k].n_calls);
            break;
        }
    }
}

static int func_index(const an_report *r, const an_func_report *f)
{
    return (int)(f - r->funcs);
}

static void range_push(dg_range *g, int64_t *cap, int64_t e)
{
    if (g->n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        g->ev = tl_xreallocarray(g->ev, (size_t)*cap, sizeof *g->ev);
    }
    g->ev[g->n++] = e;
}

static void range_of_root(dg_range *g, const an_report *r, int k)
{
    int64_t lo, hi, cap = 0;
    root_run(r, k, &lo, &hi);
    for (int64_t e = lo; e < hi; e++)
        range_push(g, &cap, e);
    g->root = r->funcs[k].func;
}

/* Own events of f in the first root run that has any. */
static void range_of_callee(dg_range *g, const an_report *r, const an_func_report *f)
{
    int64_t cap = 0;
    for (int k = 0; k < r->n_funcs && g->n == 0; k++) {
        if (!r->funcs[k].is_root)
            continue;
        int64_t lo, hi;
        root_run(r, k, &lo, &hi);
        for (int64_t e = lo; e < hi; e++)
            if (r->events[e].func == f->func)
                range_push(g, &cap, e);
        if (g->n)
            g->root = r->funcs[k].func;
    }
}

void dg_range_init(dg_range *g, const an_report *r, const an_func_report *f)
{
    *g = (dg_range){.root = -1, .own_only = !f->is_root};
    if (f->is_root)
        range_of_root(g, r, func_index(r, f));
    else
        range_of_callee(g, r, f);
}

void dg_range_init_all(dg_range *g, const an_report *r, const an_func_report *f)
{
    int64_t cap = 0;
    *g = (dg_range){.root = -1, .own_only = !f->is_root};
    if (f->is_root) {
        range_of_root(g, r, func_index(r, f));
        return;
    }
    for (int64_t e = 0; e < r->n_events; e++)
        if (r->events[e].func == f->func)
            range_push(g, &cap, e);
}

void dg_range_free(dg_range *g)
{
    free(g->ev);
    *g = (dg_range){.root = -1};
}

/* ---- which function a diagram shows ---- */

static const an_func_report *entry_function(const an_report *r)
{
    const an_func_report *main_fn = an_report_func(r, "main");
    if (main_fn)
        return main_fn;
    for (int k = 0; k < r->n_funcs; k++)
        if (r->funcs[k].is_root)
            return &r->funcs[k];
    return r->n_funcs ? &r->funcs[0] : NULL;
}

const an_func_report *dg_pick_function(const an_report *r, const char *name)
{
    return name ? an_report_func(r, name) : entry_function(r);
}

dg_status dg_pick_status(const an_report *r, const char *name)
{
    if (r->n_funcs == 0)
        return DG_NO_TENSOR_CODE;
    return dg_pick_function(r, name) ? DG_OK : DG_NO_FUNCTION;
}
