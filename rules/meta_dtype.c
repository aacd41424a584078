/*
 * meta_dtype.c: the dtype table and torch's promotion lattice.
 *
 * One table holds each dtype's size, name and category; the promotion table
 * is torch.promote_types over all pairs (generated with torch 1.13 and
 * committed), so no rule is re-derived by hand.
 */
#include "meta.h"

#include <string.h>

typedef struct dtype_info {
    const char *name;  /* short name used in reports and JSON */
    const char *enum_name;
    int size;          /* bytes */
    int category;      /* 0 bool, 1 integer, 2 floating */
} dtype_info;

static const dtype_info dtypes[] = {
    [TL_BOOL] = {"bool", "TL_BOOL", 1, 0}, [TL_U8] = {"u8", "TL_U8", 1, 1},
    [TL_I8] = {"i8", "TL_I8", 1, 1},       [TL_I16] = {"i16", "TL_I16", 2, 1},
    [TL_I32] = {"i32", "TL_I32", 4, 1},    [TL_I64] = {"i64", "TL_I64", 8, 1},
    [TL_F16] = {"f16", "TL_F16", 2, 2},    [TL_BF16] = {"bf16", "TL_BF16", 2, 2},
    [TL_F32] = {"f32", "TL_F32", 4, 2},    [TL_F64] = {"f64", "TL_F64", 8, 2},
};
_Static_assert(sizeof dtypes / sizeof dtypes[0] == TL_F64 + 1, "one entry per dtype");

/* torch.promote_types(row, column), from torch 1.13. */
static const tl_dtype promote[10][10] = {
    {TL_BOOL, TL_U8, TL_I8, TL_I16, TL_I32, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64},
    {TL_U8, TL_U8, TL_I16, TL_I16, TL_I32, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64},
    {TL_I8, TL_I16, TL_I8, TL_I16, TL_I32, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64},
    {TL_I16, TL_I16, TL_I16, TL_I16, TL_I32, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64},
    {TL_I32, TL_I32, TL_I32, TL_I32, TL_I32, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64},
    {TL_I64, TL_I64, TL_I64, TL_I64, TL_I64, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64},
    {TL_F16, TL_F16, TL_F16, TL_F16, TL_F16, TL_F16, TL_F16, TL_F32, TL_F32, TL_F64},
    {TL_BF16, TL_BF16, TL_BF16, TL_BF16, TL_BF16, TL_BF16, TL_F32, TL_BF16, TL_F32, TL_F64},
    {TL_F32, TL_F32, TL_F32, TL_F32, TL_F32, TL_F32, TL_F32, TL_F32, TL_F32, TL_F64},
    {TL_F64, TL_F64, TL_F64, TL_F64, TL_F64, TL_F64, TL_F64, TL_F64, TL_F64, TL_F64},
};

static bool dtype_valid(tl_dtype d) { return (unsigned)d <= TL_F64; }

int mt_dtype_size(tl_dtype d) { return dtype_valid(d) ? dtypes[d].size : 0; }

const char *mt_dtype_name(tl_dtype d) { return dtype_valid(d) ? dtypes[d].name : "?"; }

bool mt_dtype_parse(const char *name, tl_dtype *out)
{
    for (int d = 0; d <= TL_F64; d++) {
        if (strcmp(name, dtypes[d].name) == 0 || strcmp(name, dtypes[d].enum_name) == 0) {
            *out = (tl_dtype)d;
            return true;
        }
    }
    return false;
}

bool mt_is_floating(tl_dtype d) { return dtype_valid(d) && dtypes[d].category == 2; }

bool mt_is_integral(tl_dtype d, bool include_bool)
{
    if (!dtype_valid(d))
        return false;
    return dtypes[d].category == 1 || (include_bool && dtypes[d].category == 0);
}

tl_dtype mt_promote_types(tl_dtype a, tl_dtype b) { return promote[a][b]; }

const char *mt_device_name(tl_device d) { return d == TL_CUDA ? "cuda" : "cpu"; }

static int category(tl_dtype d) { return dtypes[d].category; }

/* torch.result_type: tensors with dims decide; 0-dim tensors take part only
 * when their category (bool < integer < floating) is higher than that of
 * every dimensioned operand. */
tl_dtype mt_result_type(int n, const mt_layout *const *ops)
{
    int have_dim = 0, have_zero = 0;
    tl_dtype dim_t = TL_BOOL, zero_t = TL_BOOL;
    for (int k = 0; k < n; k++) {
        if (ops[k]->ndim > 0) {
            dim_t = have_dim++ ? promote[dim_t][ops[k]->dtype] : ops[k]->dtype;
        } else {
            zero_t = have_zero++ ? promote[zero_t][ops[k]->dtype] : ops[k]->dtype;
        }
    }
    if (!have_dim)
        return zero_t;
    if (have_zero && category(zero_t) > category(dim_t))
        return promote[dim_t][zero_t];
    return dim_t;
}
