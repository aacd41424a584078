/*
 * vf_verify.h: join the runtime's allocation trace with the static report.
 *
 * The analyzer's event log of a root function and the trace's call and
 * error records are both in execution order; they are walked side by side.
 * For each pair: the call site (line, op) must match (else the control flow
 * diverged and the walk stops; calls on one line match as an unordered set,
 * since C leaves the order within a full expression unspecified); on the
 * first execution of a call site the
 * result's shape, strides, offset, dtype, device and kind are compared; on
 * every execution, which storage it uses (a bijection between the two runs'
 * storage ids), the bytes of a new storage, and live bytes after the call.
 * A predicted error must meet a measured error at the same line.  A run
 * that takes the arm of an unknown branch that leaves the function or the
 * program, which the report assumes it does not (an_report.paths), is
 * compared up to where it leaves (that arm's calls) and no further: it is
 * outside the report's assumptions, and the summary says so.  Then the
 * times each call site ran (its line and op) must equal the run's count
 * (an upper bound must not be exceeded; a count not known is not compared).
 * Last, the
 * run's end-of-program live bytes and peak are compared with the root's
 * (where those are lower bounds, a run below them disagrees and one at or
 * above them is not compared).  What was unknown is never counted as agreement.
 */
#ifndef TL_VF_VERIFY_H
#define TL_VF_VERIFY_H

#include <stdio.h>

#include "an.h"

typedef struct vf_options {
    const char *function;  /* the root the program runs: "main" */
    int perturb_line;      /* test hook: predictions at this line are off by one byte, and
                              their execution counts by one; a peak there that is a bound
                              lies one byte on the wrong side of the run (0: none) */
    bool run_failed;       /* the program exited non-zero (its own error handler stops it) */
    bool no_trace;         /* the program ran to its end without writing a trace: it made no
                              tensorlint call (the runtime starts the trace at the first) */
} vf_options;

typedef struct vf_summary {
    int64_t calls;         /* executed calls compared */
    int64_t sites;         /* call sites whose first execution was compared */
    int64_t fields;        /* fields compared */
    int64_t mismatches;
    int64_t unknown;       /* call sites whose prediction is unknown (not compared) */
    int64_t live_not_compared;   /* calls whose live bytes were not compared (sizes
                                    unknown, or the run left the path analysed) */
    int64_t totals_not_compared; /* end and peak predicted as not bounded */
    int64_t bounds_held;   /* end and peak predicted as bounds (at most, at least) that the
                              run keeps to (one it does not is a mismatch) */
    int64_t formulas_not_compared; /* end and peak predicted as formulas of sizes not bound */
    int64_t past_end_not_compared; /* end and peak of a report that goes on past the error
                                      the run ended at */
    int64_t exec_not_compared;   /* call sites whose execution count is a bound the run keeps
                                    to, or not known */
    bool diverged;         /* the run took another path than the analysis */
    bool trace_truncated;  /* the trace has no exit record */
    bool ended;            /* the trace has its exit record: the program reached exit
                              (returned from main or called exit), whatever its status */
    bool ended_at_error;   /* the trace's last record is a runtime error */
    bool left;             /* the run left where the report assumes it does not (an
                              assumption on its path): compared up to there only */
    int left_line;         /* the statement it left by */
    bool left_elsewhere;   /* or by another the output lists: the run cannot tell them apart */
    const char *left_assumption; /* the assumption it broke (the report's text) */
    int64_t after_left;    /* calls of the run after it left, not compared */
} vf_summary;

/* Reads the trace at path (JSON lines) and compares it with report r; writes
 * the agreement table to out.  Returns false when the trace cannot be read
 * (the message is in *error, to free). */
bool vf_verify(const an_report *r, const char *trace_path, const vf_options *opt, FILE *out,
               vf_summary *sum, char **error);

/* The values in the run of report r's symbols that a call of the trace at
 * trace_path shows (the shape of a call run once, the count of a call run a
 * symbol's times; docs/symbolic.md, "Verify at the run's sizes"): n names, values
 * and how each was read (to free), 0 when there are none. */
int vf_run_values(const an_report *r, const char *trace_path, const char *function,
                  char ***names, int64_t **values, char ***whys);

#endif /* TL_VF_VERIFY_H */
