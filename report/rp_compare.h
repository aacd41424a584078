/*
 * rp_compare.h: a report against the report of a base revision (both as
 * the JSON of docs/formats.md).  Functions are paired by name; a base
 * function and a head function left unpaired with the same calls (the
 * same ops on the same variables, in order) are one function renamed;
 * the rest were added or removed.  Diagnostics are paired by check,
 * function (the base's name of a renamed one) and the text of the call
 * they point at, never by line, each base diagnostic at most once, in
 * order, so unrelated edits above a warning leave it paired.
 */
#ifndef TL_RP_COMPARE_H
#define TL_RP_COMPARE_H

#include <jansson.h>
#include <stdbool.h>

#include "an.h"

/* The report at path, checked to be a `report --format=json` of schema 1
 * whose diagnostics carry their function and call.  NULL, with *error
 * (allocated, one line, naming path), when it is not. */
json_t *rp_baseline_load(const char *path, char **error);

/* Whether report names file (as given, or one path ending in the other at a '/'). */
bool rp_report_names_file(const json_t *report, const char *file);
/* The files report names, ", "-separated (allocated); "no file" when none. */
char *rp_report_files(const json_t *report);

typedef enum rp_fn_change {
    RP_FN_SAME,     /* same name in both */
    RP_FN_RENAMED,  /* same calls under another name */
    RP_FN_ADDED,    /* only in the head */
    RP_FN_REMOVED   /* only in the base */
} rp_fn_change;

typedef struct rp_fn_pair {
    const json_t *base;  /* the base's FUNCTION, NULL when added */
    const json_t *head;  /* the head's FUNCTION, NULL when removed */
    rp_fn_change change;
} rp_fn_pair;

typedef struct rp_comparison {
    int n_pairs;
    rp_fn_pair *pairs;     /* head functions in order, then the removed ones */
    int n_head_diags;
    int *head_match;       /* per head diagnostic: index of its base diagnostic, or -1 (new) */
    int n_base_diags;
    bool *base_matched;    /* per base diagnostic: some head diagnostic pairs with it */
    bool *base_in_file;    /* per base diagnostic: it is one of file's */
} rp_comparison;

/* Compare the functions and diagnostics of file in head with those in base. */
rp_comparison *rp_compare(const json_t *base, const json_t *head, const char *file);
void rp_comparison_free(rp_comparison *c);

/* The base's name of the head function called name (itself unless renamed). */
const char *rp_compare_base_name(const rp_comparison *c, const char *name);

/* Integer field key of a JSON object, or fallback when it is not an integer. */
long long rp_json_int(const json_t *o, const char *key, long long fallback);
/* String field key, or "" when it is not a string. */
const char *rp_json_str(const json_t *o, const char *key);
/* What function f of a report claims of its total key ("peak_live_bytes"
 * ...): "bounds" of schema 3; in schemas 1 and 2, a total in "not_exact"
 * (or any total, where only "bytes_are_lower_bounds" is set) did not say
 * which way, and is read as not bounded. */
an_claim rp_json_claim(const json_t *f, const char *key);

#endif /* TL_RP_COMPARE_H */
