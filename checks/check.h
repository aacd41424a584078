/*
 * check.h: the checks.  One table (checks.def) names every diagnostic
 * tensorlint emits; the rules among them run over the facts an
 * an_report already holds (values, storages, the event log) and add
 * their warnings to report->diags, which stays sorted by line, column and
 * check.  The check command filters, suppresses and prints them; the
 * report command prints them with its table.
 *
 * A warning states its cost in bytes, points with notes at the cause and
 * carries fix-its where the edit is mechanical.  A rule never warns where
 * the cost is zero; a call site executed many times (a loop, a function
 * called in a loop) is reported once, with the cost of one execution and
 * the count.
 */
#ifndef TL_CHECK_H
#define TL_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "an.h"

typedef enum ck_kind {
    CK_KIND_INTERP, /* reported by the interpreter */
    CK_KIND_RULE,   /* a rule over the report's facts */
    CK_KIND_DRIVER  /* reported by the check command (suppression comments) */
} ck_kind;

typedef enum ck_id {
#define CK_INTERP(id, name, sev, tags, summary) CK_##id,
#define CK_RULE(id, name, sev, tags, summary) CK_##id,
#define CK_DRIVER(id, name, sev, tags, summary) CK_##id,
#include "checks.def"
#undef CK_INTERP
#undef CK_RULE
#undef CK_DRIVER
    CK_N_CHECKS
} ck_id;

typedef struct ck_info {
    const char *name;     /* "hidden-copy" */
    an_severity severity; /* default severity */
    ck_kind kind;
    const char *tags;     /* comma-separated: "performance,memory" */
    const char *summary;  /* one line */
} ck_info;

extern const ck_info ck_checks[CK_N_CHECKS];

/* The id of the check called name, or -1. */
int ck_find(const char *name);

/* "docs/checks/<name>.md": the check's page, relative to the project root. */
void ck_doc_path(char *buf, size_t size, const char *name);

typedef struct ck_budget {  /* --budget=FUNCTION=BYTES */
    const char *function;
    int64_t peak_bytes;       /* bytes */
} ck_budget;

typedef struct ck_options {
    int64_t upcast_min_bytes;       /* bytes: smaller upcast results stay quiet */
    int64_t late_release_min_bytes; /* bytes: smallest peak saving worth a warning */
    int late_release_min_percent;   /* percent of the peak: likewise */
    int64_t tiny_cuda_max_bytes;    /* bytes: CUDA storages this small are "tiny" */
    int slice_pin_max_percent;      /* percent of the storage a pinning view may use */
    const bool *enabled;            /* per ck_id, or NULL: every rule runs */
    int n_budgets;
    const ck_budget *budgets;       /* peak budgets of the command line; over a comment's */
} ck_options;

/* "1048576", "1MiB", "64K", "512 MiB": binary units (K, KiB, M, MiB, G, GiB).
 * False for anything else, or a count that does not fit in 63 bits. */
bool ck_parse_bytes(const char *s, int64_t *out);

void ck_options_default(ck_options *o);

/* Run the enabled rules over r and add their diagnostics to r->diags
 * (kept sorted).  Fix-its are computed from the source text of
 * r->unit->path when it can be read.  Never fails (out of memory ends the
 * process: xalloc.h). */
void ck_run(an_report *r, const ck_options *o);
/* ck_run for a file whose text is text[0..len) rather than what is on disk
 * (an editor's unsaved buffer): fix-its are computed from that text. */
void ck_run_text(an_report *r, const ck_options *o, const char *text, size_t len);

/* ---- choosing checks (check_select.c) ---- */

/* clang-tidy's glob: '*' matches any run of characters. */
bool ck_glob_match(const char *glob, const char *name);
/* Apply "glob,-glob,..." in order to mask (per ck_id): a glob turns the
 * checks it matches on, "-glob" off.  False, with *error (allocated) when
 * error is not NULL, for an empty entry or a plain name that is no check. */
bool ck_select(const char *globs, bool *mask, char **error);

/* ---- suppression comments (check_nolint.c) ---- */

typedef struct ck_nolint ck_nolint;

/* The NOLINT markers of the file at path, or NULL when it cannot be read. */
ck_nolint *ck_nolint_scan(const char *path);
/* The NOLINT markers of text[0..len), the contents of path (an unsaved buffer). */
ck_nolint *ck_nolint_scan_text(const char *path, const char *text, size_t len);
/* Whether a marker suppresses d (never an error). */
bool ck_nolint_suppresses(const ck_nolint *nl, const an_diag *d);
/* The [nolint] warnings about the markers themselves; owned by nl. */
int ck_nolint_problems(const ck_nolint *nl, const an_diag **out);
void ck_nolint_free(ck_nolint *nl);

/* ---- a baseline: the base revision's report (check_baseline.c) ---- */

typedef struct ck_baseline ck_baseline;

/* The base reports of --baseline (each `report --format=json` of one file). */
ck_baseline *ck_baseline_new(void);
/* Load path; false, with *error (allocated, one line), when it is not such a report. */
bool ck_baseline_add(ck_baseline *b, const char *path, char **error);
/* Whether some base report names file. */
bool ck_baseline_names(const ck_baseline *b, const char *file);
/* The base report that names file (the JSON of docs/formats.md), or NULL. */
const json_t *ck_baseline_report(const ck_baseline *b, const char *file);
/* The files the base reports name, for an error message (allocated). */
char *ck_baseline_files(const ck_baseline *b);
void ck_baseline_free(ck_baseline *b);

typedef enum ck_base_state { CK_BASE_NEW, CK_BASE_UNCHANGED } ck_base_state;

typedef struct ck_base_result {  /* one file against the baseline */
    bool unnamed;                /* no base report names the file: everything is new */
    int n_states;
    ck_base_state *states;       /* per reported diagnostic */
    int n_absent;
    an_diag *absent;             /* the base's diagnostics of the file gone from it (owned) */
    int n_changes;
    char **changes;              /* "function 'f' renamed to 'g'" ... (owned) */
    void *priv;                  /* the comparison, until ck_baseline_states */
} ck_base_result;

/* Compare the file's report r (after ck_run) with the baseline: add a
 * peak-regression warning to r->diags for every function whose peak grew
 * by at least min_bytes (unless enabled says the check is off), and keep
 * what ck_baseline_states needs.  When no base report names path, every
 * diagnostic will be new (unnamed is set). */
ck_base_result *ck_baseline_compare(const ck_baseline *b, an_report *r, const char *path,
                                    int64_t min_bytes, const bool *enabled);
/* The state of each diagnostic that will be reported (diags: r's, filtered
 * and copied) and the base's diagnostics gone from the file. */
void ck_baseline_states(ck_base_result *res, const an_diag *diags, int n_diags,
                        const bool *enabled);
void ck_base_result_free(ck_base_result *res);

/* ---- SARIF 2.1.0 (check_sarif.c) ---- */

typedef struct ck_sarif_file {
    const char *path;      /* the file as analysed */
    int n_diags;
    const an_diag *diags;  /* what to report, severities final, sorted */
    const char *failure;   /* why the file was not analysed, or NULL */
    const ck_base_result *base; /* against a baseline: baselineState, absent results; or NULL */
} ck_sarif_file;

typedef struct ck_sarif_options {
    const char *srcroot;   /* artifact URIs are relative to it (%SRCROOT%); NULL: "." */
    const char *doc_url;   /* base of every rule's helpUri: <doc_url><name>.md */
    const char *version;   /* the tool's version */
} ck_sarif_options;

/* The log: one run, every check of the table as a rule, the files' results in order. */
json_t *ck_sarif_log(const ck_sarif_file *files, int n_files, const ck_sarif_options *o);

/* ---- GitLab code quality (check_codequality.c) ---- */

/* The issues of files (notes left out), paths relative to srcroot (NULL: "."). */
json_t *ck_codequality(const ck_sarif_file *files, int n_files, const char *srcroot);

#endif /* TL_CHECK_H */
