/*
 * meta_impl.h: helpers shared by the meta function files (not installed,
 * not used outside rules/meta_*.c).
 */
#ifndef TL_META_IMPL_H
#define TL_META_IMPL_H

#include "meta.h"

#include <stdio.h>

#if defined(__GNUC__)
#define MT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MT_PRINTF(a, b)
#endif

/* Record an error with PyTorch's message; returns the status. */
tl_status mt_fail(mt_result *r, tl_status status, const char *fmt, ...) MT_PRINTF(3, 4);
/* Result: a view of operand `of` with layout out (storage bytes taken from the operand). */
tl_status mt_view_of(const mt_call *c, mt_result *r, const mt_layout *out, int of,
                     const char *fmt, ...) MT_PRINTF(5, 6);
/* Result: a new dense storage holding out (offset 0); read_bytes as given, written = its bytes. */
tl_status mt_new_storage(mt_result *r, const mt_layout *out, mt_int read_bytes,
                         const char *fmt, ...) MT_PRINTF(4, 5);
/* Check that no size is negative and that shape's byte count fits int64
 * (PyTorch's "Storage size calculation overflowed"). */
tl_status mt_check_shape(mt_result *r, int ndim, const mt_int *shape, tl_dtype dtype);
/* Every operand on ops[0]'s device (ops that are not TensorIterator's:
 * matmul, conv2d, index_select, gather, cat); PyTorch's message otherwise. */
tl_status mt_check_same_device(mt_result *r, int n, const mt_layout *const *ops);
/* An elementwise (TensorIterator) result over the first n operands of c, in dtype. */
tl_status mt_elementwise(const mt_call *c, mt_result *r, int n, tl_dtype dtype, const char *reason);
/* in[0] op s with s a Python float (a wrapped 0-dim scalar operand), in dtype. */
tl_status mt_with_scalar(const mt_call *c, mt_result *r, tl_dtype dt, const char *reason);
/* t op= other computed in dt: other broadcasts into t, dt casts back to t's
 * dtype (can_cast), t does not overlap itself nor partly other. */
tl_status mt_inplace_binary(const mt_call *c, mt_result *r, tl_dtype dt);
/* The in-place result: out is in[0], read as given, written its bytes. */
tl_status mt_inplace_ok(const mt_call *c, mt_result *r, mt_int read);
/* PyTorch's errors of an in-place write into a tensor that overlaps itself,
 * and into one that partly overlaps an input. */
tl_status mt_overlap_error(mt_result *r);
tl_status mt_partial_overlap_error(mt_result *r);
/* get_overlap_status: in[0] and in[k] are dense views of one storage whose
 * bytes meet and are not the very same layout. */
bool mt_partial_overlap(const mt_call *c, int k);
/* torch.can_cast(from, to), and its "result type ... can't be cast" error. */
bool mt_can_cast(tl_dtype from, tl_dtype to);
tl_status mt_cast_error(mt_result *r, tl_dtype from, tl_dtype to);
/* other must broadcast to exactly t's shape (an in-place op's rule). */
tl_status mt_check_broadcast_into(mt_result *r, const mt_layout *t, const mt_layout *other);
/* A Python scalar converted to dtype d without overflow (c10::checked_convert). */
tl_status mt_check_value(mt_result *r, tl_dtype d, double v);
/* c10's TypeMeta name of d ("float", "long int", "c10::Half"), as dtype messages print it. */
const char *mt_type_meta_name(tl_dtype d);
/* Check a result's layout against the limits of meta_limits.c; is_new: a new storage. */
tl_status mt_check_layout(mt_result *r, const mt_layout *l, bool is_new);
/* mt_run's gate on every result: the layout is valid, no byte count negative. */
tl_status mt_check_result(mt_result *r);
/* *acc += nbytes; false, with r failed, when the sum does not fit int64. */
bool mt_add_bytes(mt_result *r, mt_int *acc, mt_int nbytes);
/* a x b wrapped to 64 bits, as PyTorch's int64 arithmetic wraps.  Only for
 * values that are compared, or that stride a dim of at most one element. */
#define mt_mul_wrap(a, b) mi_mul(a, b)
/* Wrap dim for a tensor of ndim dims, or fail with PyTorch's range message. */
bool mt_dim(mt_result *r, mt_int dim, int ndim, int64_t *out);
/* A layout with shape and row-major strides. */
void mt_layout_dense(mt_layout *l, int ndim, const mt_int *shape, tl_dtype dtype,
                     tl_device device);
/* "[2, 3, 4]" into buf. */
const char *mt_shape_str(char *buf, size_t size, int ndim, const mt_int *shape);
/* Symbolic build: a rule needs the known value of what; fails the call as not
 * followed symbolically (r->not_symbolic).  Returns the status. */
tl_status mt_not_symbolic(mt_result *r, const char *what);
/* *out = the known value of a, or false after mt_not_symbolic(r, what). */
bool mt_known(mt_result *r, mt_int a, const char *what, int64_t *out);
/* PyTorch's type name of a dtype in kernel messages: "Float", "Half", "Long" ... */
const char *mt_torch_type_name(tl_dtype d);

#endif /* TL_META_IMPL_H */
