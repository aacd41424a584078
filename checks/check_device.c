/*
 * check_device.c: the rules about how CUDA memory is used: a half-precision
 * convolution fed NCHW instead of channels-last (channels-first-conv), and
 * tensors far smaller than the caching allocator's 512-byte block
 * (tiny-cuda-tensor).
 *
 * The cache-line argument is the seed chapter's: a 64-byte line, a
 * channel loop whose step is H x W elements in NCHW and one element in
 * channels-last.
 */
#include "check_internal.h"

#include <stdlib.h>

#define CK_LINE_BYTES 64

static bool ck_half(tl_dtype d) { return d == TL_F16 || d == TL_BF16; }

/* After the statement that makes x, convert it to channels-last in place:
 * `{ tl_tensor *x_nhwc = tl_to_format(x, TL_CHANNELS_LAST); tl_release(x); x = x_nhwc; }`. */
static void ck_conv_fix(ck_ctx *cx, an_diag *d, int x)
{
    const an_value *v = &cx->r->values[x];
    ck_pos after;
    if (!d || !v->name || v->kind != MT_KIND_NEW ||
        !ck_ir_straight_line(cx, v->func, IR_CALL, v->line, v->col) ||
        !ck_src_stmt_end(ck_source(cx), (ck_pos){v->line, v->col}, &after))
        return;
    char *indent = ck_src_indent(ck_source(cx), v->line);
    char *text = tl_xasprintf("\n%s{ tl_tensor *%s_nhwc = tl_to_format(%s, TL_CHANNELS_LAST); "
                              "tl_release(%s); %s = %s_nhwc; }", indent, v->name, v->name, v->name,
                              v->name, v->name);
    ck_fixit(d, after, after, text);
    free(indent);
    free(text);
}

/* tl_conv2d on CUDA with an f16/bf16 input that is contiguous NCHW (and not
 * also channels-last): per output position the channel loop steps H x W
 * elements, so each 64-byte line fetched serves one element; channels-last
 * serves min(C, 64 / element size) channels per line, and cuDNN's fast
 * half-precision kernels are channels-last.  Fix: convert once at input. */
void ck_rule_channels_first_conv(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int64_t k = 0; k < cx->n_picks[CK_PICK_CONV]; k++) {
        const an_event *e = ck_event(cx, cx->picks[CK_PICK_CONV][k]);
        int x = e->n_in > 0 ? e->in_value[0] : -1;
        if (e->kind != AN_EV_CALL || e->op != MT_OP_conv2d || x < 0 || !r->values[x].known)
            continue;
        const mt_layout *l = &r->values[x].l;
        if (l->device != TL_CUDA || !ck_half(l->dtype) || l->ndim != 4 || !mt_is_contiguous(l) ||
            mt_is_channels_last(l))
            continue;
        int64_t c = l->shape[1], hw = l->shape[2] * l->shape[3], es = mt_dtype_size(l->dtype);
        int64_t per_line = CK_LINE_BYTES / es < c ? CK_LINE_BYTES / es : c;
        int64_t nhwc_lines = (c * es + CK_LINE_BYTES - 1) / CK_LINE_BYTES;
        char *label = ck_value_label(cx, x), *times = ck_times(cx, e->value, 0);
        an_diag *d = ck_diag_add(cx, CK_channels_first_conv, e->line, e->col,
                                 "tl_conv2d reads %s %s in contiguous NCHW on CUDA: its %lld "
                                 "channels are %lld elements (%s) apart, so each output position "
                                 "fetches %lld 64-byte lines to use %s; channels-last packs %lld "
                                 "channels per line (%lld line%s, %lldx fewer) and is the layout "
                                 "cuDNN's fast %s kernels use%s", mt_dtype_name(l->dtype), label,
                                 (long long)c, (long long)hw, ck_bytes(hw * es).s, (long long)c,
                                 ck_bytes(c * es).s, (long long)per_line, (long long)nhwc_lines,
                                 nhwc_lines == 1 ? "" : "s", (long long)(c / nhwc_lines),
                                 mt_dtype_name(l->dtype), times);
        ck_note(d, r->values[x].line, r->values[x].col,
                "convert once at the input: tl_to_format(x, TL_CHANNELS_LAST)");
        ck_conv_fix(cx, d, x);
        free(label);
        free(times);
    }
}

/* A CUDA storage of at most the threshold bytes (64 by default) still takes
 * a 512-byte block of the caching allocator: block bytes vs payload bytes.
 * 0-dim scalars are the usual case, and a loop makes one per iteration. */
void ck_rule_tiny_cuda_tensor(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        if (!ck_value_allocates(cx, v) || x->l.device != TL_CUDA)
            continue;
        const an_storage *st = &r->storages[x->storage];
        if (st->nbytes > cx->o->tiny_cuda_max_bytes || st->block_bytes <= st->nbytes)
            continue;
        char *times = ck_times(cx, v, st->block_bytes);
        ck_diag_add(cx, CK_tiny_cuda_tensor, x->line, x->col,
                    "tl_%s makes a %s CUDA tensor that takes a %s allocator block (%lldx its "
                    "payload)%s%s", mt_ops[x->op].name, ck_bytes(st->nbytes).s,
                    ck_bytes(st->block_bytes).s, (long long)(st->block_bytes / st->nbytes), times,
                    x->l.ndim == 0 ? "; keep the scalar on the host (tl_add_scalar and "
                                     "tl_mul_scalar take a double)" : "");
        free(times);
    }
}
