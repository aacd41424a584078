/*
 * fe_place.c: C's memory, lowered: places, pointer values, stores, loads,
 * aggregate copies and initializers.
 *
 * A place is an lvalue: a variable and a path of steps (field, index,
 * dereference).  The lowering never decides what a place holds; it writes
 * down the path, and the interpreter resolves it when the statement runs,
 * reading indices and pointers from the state at that moment.  So
 * `w->layers[l].wq = tl_zeros(...)` is a CALL into a temporary and a STORE
 * of it into the place w, DEREF, FIELD layers, INDEX l, FIELD wq.
 *
 * Fields are keyed by their bit offset in the struct (unique per struct;
 * a union's members share offset 0, so a union is not lowered as a place:
 * its members would alias).  Pointer values are the address of a place
 * (arrays decay to their first element), the pointer held in a place, a
 * new heap block (malloc, calloc), or null; casts between pointer types
 * keep the value, so a cast through void * and back is followed.
 */
#include "fe_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- types ---- */

static CXType fe_canon(CXType t) { return clang_getCanonicalType(t); }

bool fe_type_is_pointer(CXType t)
{
    t = fe_canon(t);
    return t.kind == CXType_Pointer && !fe_type_is_tensor(t);
}

bool fe_type_is_array(CXType t)
{
    enum CXTypeKind k = fe_canon(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray ||
           k == CXType_DependentSizedArray;
}

static bool fe_type_is_union(CXType t)
{
    t = fe_canon(t);
    return t.kind == CXType_Record &&
           clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_UnionDecl;
}

bool fe_type_is_record(CXType t)
{
    t = fe_canon(t);
    return t.kind == CXType_Record && !fe_type_is_union(t);
}

/* Does expression c denote an array object?  A parameter declared as an
 * array is a pointer (C adjusts its type), whatever libclang shows. */
bool fe_expr_is_array(CXCursor c)
{
    c = fe_strip(c, false);
    if (!fe_type_is_array(clang_getCursorType(c)))
        return false;
    return clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
           clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_ParmDecl;
}

/* An object the memory model holds: a struct, an array, or a pointer. */
bool fe_type_is_object(CXType t)
{
    return fe_type_is_record(t) || fe_type_is_array(t) || fe_type_is_pointer(t);
}

/* ---- places ---- */

/* The C text of c, from the main file's bytes, or its spelling. */
const char *fe_text(fe_ctx *fx, CXCursor c)
{
    const char *s = fe_source_text(fx, c);
    return s ? s : fe_spelling(fx, c);
}

static ir_place *fe_place_extend(fe_ctx *fx, const ir_place *base, ir_step step, CXCursor c)
{
    ir_place *p = ir_alloc(fx->u, sizeof *p);
    p->var = base->var;
    p->n_steps = base->n_steps + 1;
    p->steps = ir_alloc(fx->u, sizeof *p->steps * (size_t)p->n_steps);
    if (base->n_steps)
        memcpy(p->steps, base->steps, sizeof *p->steps * (size_t)base->n_steps);
    p->steps[base->n_steps] = step;
    p->text = fe_text(fx, c);
    return p;
}

ir_place *fe_place_of_var(fe_ctx *fx, int var)
{
    ir_place *p = ir_alloc(fx->u, sizeof *p);
    p->var = var;
    p->text = fx->u->vars[var].name;
    return p;
}

ir_place *fe_place_field(fe_ctx *fx, const ir_place *base, CXCursor field, CXCursor at)
{
    ir_step st = {.kind = IR_STEP_FIELD, .key = clang_Cursor_getOffsetOfField(field),
                  .name = fe_spelling(fx, field)};
    return fe_place_extend(fx, base, st, at);
}

ir_place *fe_place_index(fe_ctx *fx, const ir_place *base, ir_expr *index, CXCursor at)
{
    ir_step st = {.kind = IR_STEP_INDEX, .index = index};
    return fe_place_extend(fx, base, st, at);
}

static ir_place *fe_place_deref(fe_ctx *fx, const ir_place *base, ir_expr *index, CXCursor at)
{
    ir_step st = {.kind = IR_STEP_DEREF, .index = index};
    return fe_place_extend(fx, base, st, at);
}

/* p + i where p is pointer-typed and i an integer (either order); false otherwise. */
static bool fe_pointer_sum(fe_ctx *fx, CXCursor c, CXCursor *ptr, CXCursor *off, bool *minus)
{
    CXCursor kids[2];
    int n;
    bool postfix;
    char buf[8];
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
        return false;
    const char *text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
    if (!text || n != 2 || (strcmp(text, "+") != 0 && strcmp(text, "-") != 0))
        return false;
    bool p0 = fe_type_is_pointer(clang_getCursorType(kids[0])) ||
              fe_expr_is_array(fe_strip(kids[0], false));
    bool p1 = fe_type_is_pointer(clang_getCursorType(kids[1]));
    if (p0 == p1 || (p1 && text[0] == '-'))
        return false;
    *ptr = p0 ? kids[0] : kids[1];
    *off = p0 ? kids[1] : kids[0];
    *minus = text[0] == '-';
    return true;
}

static ir_place *fe_place_of_deref(fe_ctx *fx, CXCursor c, CXCursor ptr, const char **why)
{
    CXCursor base, off;
    bool minus;
    ptr = fe_strip(ptr, false);
    if (fe_pointer_sum(fx, ptr, &base, &off, &minus)) {
        ir_expr *i = fe_lower_int(fx, off);
        if (minus)
            i = fe_fold(fx, ir_expr_unary(fx->u, fe_loc(fx, off), IR_OP_NEG, i));
        base = fe_strip(base, false);
        if (fe_expr_is_array(base)) { /* *(a + i) is a[i] */
            ir_place *arr = fe_lower_place(fx, base, why);
            return arr ? fe_place_index(fx, arr, i, c) : NULL;
        }
        ir_place *p = fe_lower_place(fx, base, why);
        return p ? fe_place_deref(fx, p, i, c) : NULL;
    }
    if (fe_expr_is_array(ptr)) { /* *a is a[0] */
        ir_place *arr = fe_lower_place(fx, ptr, why);
        return arr ? fe_place_index(fx, arr, ir_expr_const(fx->u, fe_loc(fx, c), 0), c) : NULL;
    }
    ir_place *p = fe_lower_place(fx, ptr, why);
    return p ? fe_place_deref(fx, p, NULL, c) : NULL;
}

static ir_place *fe_place_of_member(fe_ctx *fx, CXCursor c, const char **why)
{
    CXCursor base, field = clang_getCursorReferenced(c);
    if (fe_children(c, &base, 1) != 1 || clang_getCursorKind(field) != CXCursor_FieldDecl) {
        *why = "a member the analysis cannot resolve";
        return NULL;
    }
    if (clang_getCursorKind(clang_getCursorSemanticParent(field)) == CXCursor_UnionDecl) {
        *why = ir_strfmt(fx->u, "a member of a union (%s)", fe_spelling(fx, field));
        return NULL;
    }
    CXType bt = clang_getCursorType(base);
    ir_place *p;
    if (fe_type_is_pointer(bt)) { /* p->f is (*p).f */
        p = fe_place_of_deref(fx, c, base, why);
    } else {
        p = fe_lower_place(fx, base, why);
    }
    return p ? fe_place_field(fx, p, field, c) : NULL;
}

static ir_place *fe_place_of_subscript(fe_ctx *fx, CXCursor c, const char **why)
{
    CXCursor kids[2];
    if (fe_children(c, kids, 2) != 2) {
        *why = "a malformed subscript";
        return NULL;
    }
    CXCursor base = fe_strip(kids[0], false);
    CXCursor idx = kids[1];
    bool base_is_ptr = !fe_expr_is_array(base) && (fe_type_is_pointer(clang_getCursorType(base)) ||
                                                   fe_type_is_array(clang_getCursorType(base)));
    if (!fe_expr_is_array(base) && !base_is_ptr) {
        base = fe_strip(kids[1], false); /* i[a] */
        idx = kids[0];
    }
    ir_expr *i = fe_lower_int(fx, idx);
    if (fe_expr_is_array(base)) {
        ir_place *arr = fe_lower_place(fx, base, why);
        return arr ? fe_place_index(fx, arr, i, c) : NULL;
    }
    if (!fe_expr_is_array(base) && !fe_type_is_pointer(clang_getCursorType(base)) &&
        !fe_type_is_array(clang_getCursorType(base))) {
        *why = "a subscript of something that is not an array or a pointer";
        return NULL;
    }
    CXCursor pb, off;
    bool minus;
    if (fe_pointer_sum(fx, base, &pb, &off, &minus)) {
        *why = "a subscript of pointer arithmetic";
        return NULL;
    }
    ir_place *p = fe_lower_place(fx, base, why);
    return p ? fe_place_deref(fx, p, i, c) : NULL;
}

ir_place *fe_lower_place(fe_ctx *fx, CXCursor c, const char **why)
{
    CXCursor kids[2];
    int n;
    bool postfix;
    char buf[8];
    const char *text;
    c = fe_strip(c, false);
    *why = NULL;
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr: {
        CXCursor decl = clang_getCursorReferenced(c);
        enum CXCursorKind k = clang_getCursorKind(decl);
        if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl)
            return fe_place_of_var(fx, fe_var_of_decl(fx, decl));
        *why = ir_strfmt(fx->u, "%s is not a variable", fe_spelling(fx, c));
        return NULL;
    }
    case CXCursor_MemberRefExpr: return fe_place_of_member(fx, c, why);
    case CXCursor_ArraySubscriptExpr: return fe_place_of_subscript(fx, c, why);
    case CXCursor_UnaryOperator:
        text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
        if (text && n == 1 && strcmp(text, "*") == 0)
            return fe_place_of_deref(fx, c, kids[0], why);
        break;
    default: break;
    }
    *why = ir_strfmt(fx->u, "%s", fe_text(fx, c));
    *why = ir_strfmt(fx->u, "memory reached through '%s'", *why);
    return NULL;
}

/* ---- pointer values ---- */

static ir_ptr *fe_ptr_new(fe_ctx *fx, ir_ptr_kind kind)
{
    ir_ptr *p = ir_alloc(fx->u, sizeof *p);
    p->kind = kind;
    return p;
}

static ir_ptr *fe_ptr_unknown(fe_ctx *fx, const char *reason)
{
    ir_ptr *p = fe_ptr_new(fx, IR_PTR_UNKNOWN);
    p->reason = reason;
    return p;
}

static bool fe_last_is_element(const ir_place *p)
{
    return p->n_steps > 0 && (p->steps[p->n_steps - 1].kind == IR_STEP_INDEX ||
                              (p->steps[p->n_steps - 1].kind == IR_STEP_DEREF));
}

/* The address of place p (an array: its first element). */
static ir_ptr *fe_ptr_addr(fe_ctx *fx, ir_place *p, CXType t, CXCursor at)
{
    ir_ptr *r = fe_ptr_new(fx, IR_PTR_ADDR);
    if (fe_type_is_array(t))
        p = fe_place_index(fx, p, ir_expr_const(fx->u, fe_loc(fx, at), 0), at);
    r->place = p;
    r->elem = fe_last_is_element(p);
    return r;
}

typedef enum fe_alloc_kind { FE_ALLOC_NONE, FE_ALLOC_MALLOC, FE_ALLOC_CALLOC, FE_ALLOC_REALLOC } fe_alloc_kind;

/* Which of the C library's allocators the call is (realloc(NULL, n) is malloc). */
static fe_alloc_kind fe_allocator(fe_ctx *fx, CXCursor call)
{
    fe_callee ce = fe_callee_of(fx, call);
    if (ce.kind != FE_CALLEE_USER || fe_func_lookup(fx, ce.name) >= 0)
        return FE_ALLOC_NONE;
    if (strcmp(ce.name, "calloc") == 0)
        return FE_ALLOC_CALLOC;
    if (strcmp(ce.name, "realloc") == 0 && clang_Cursor_getNumArguments(call) == 2)
        return fe_is_null_constant(clang_Cursor_getArgument(call, 0)) ? FE_ALLOC_MALLOC
                                                                       : FE_ALLOC_REALLOC;
    return strcmp(ce.name, "malloc") == 0 || strcmp(ce.name, "aligned_alloc") == 0 ? FE_ALLOC_MALLOC
                                                                                   : FE_ALLOC_NONE;
}

bool fe_type_is_function(CXType t)
{
    enum CXTypeKind k = fe_canon(t).kind;
    return k == CXType_FunctionProto || k == CXType_FunctionNoProto;
}

/* A pointer to the function decl names (f, &f): the function itself.  A
 * function of the API is no function the analysis runs: calls through a
 * pointer to it are not followed. */
static ir_ptr *fe_ptr_func(fe_ctx *fx, CXCursor decl)
{
    const char *name = fe_spelling(fx, decl);
    if (fe_is_api_decl(fx, decl))
        return fe_ptr_unknown(fx, ir_strfmt(fx->u, "a pointer to the API function %s", name));
    ir_ptr *p = fe_ptr_new(fx, IR_PTR_FUNC);
    p->name = name;
    p->func = fe_func_lookup(fx, name);
    if (p->func < 0)
        p->ext = ir_ext_func(fx->u, name);
    else if (p->func != fx->func)
        fx->u->funcs[p->func]->address_taken = true;
    return p;
}

/* Is c (stripped) a name of a function?  *decl: its declaration. */
static bool fe_function_name(CXCursor c, CXCursor *decl)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return false;
    *decl = clang_getCursorReferenced(c);
    return clang_getCursorKind(*decl) == CXCursor_FunctionDecl;
}

/* The bytes of what a pointer of type t points to; 0 when not known (void *). */
static int64_t fe_pointee_size(CXType t)
{
    t = fe_canon(t);
    if (t.kind != CXType_Pointer)
        return 0;
    CXType e = fe_canon(clang_getPointeeType(t));
    long long n = e.kind == CXType_Void ? -1 : clang_Type_getSizeOf(e);
    return n > 0 ? n : 0;
}

/* c ? p : q, as an IF that assigns a temporary; NULL when c is not one. */
static ir_ptr *fe_ptr_cond(fe_ctx *fx, CXCursor c)
{
    CXCursor k3[3];
    if (fe_children(c, k3, 3) != 3)
        return NULL;
    ir_loc loc = fe_loc(fx, c);
    int tmp = ir_var_new(fx->u, "<tmp>", IR_VAR_OTHER, fx->func, loc);
    fx->u->vars[tmp].is_temp = true;
    ir_stmt *s = ir_stmt_new(fx->u, IR_IF, loc);
    s->branch.cond = fe_lower_int(fx, k3[0]);
    ir_block *saved = fx->cur;
    for (int arm = 1; arm <= 2; arm++) {
        fx->cur = ir_block_new(fx->u);
        fe_store_ptr(fx, loc, fe_place_of_var(fx, tmp), fe_lower_ptr(fx, k3[arm]));
        if (arm == 1)
            s->branch.then_blk = fx->cur;
        else
            s->branch.else_blk = fx->cur;
    }
    fx->cur = saved;
    fe_push(fx, s);
    ir_ptr *r = fe_ptr_new(fx, IR_PTR_LOAD);
    r->place = fe_place_of_var(fx, tmp);
    return r;
}

ir_ptr *fe_lower_ptr(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2], base, off, decl;
    int n;
    bool postfix, minus;
    char buf[8];
    const char *text, *why;
    if (fe_is_null_constant(c))
        return fe_ptr_new(fx, IR_PTR_NULL);
    CXType outer = clang_getCursorType(c); /* what the value is converted to */
    c = fe_strip(c, true); /* a cast between pointer types keeps the value */
    CXType t = clang_getCursorType(c);
    if (fe_function_name(c, &decl))
        return fe_ptr_func(fx, decl); /* a function decays to a pointer to it */
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnaryOperator:
        text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
        if (text && n == 1 && strcmp(text, "&") == 0) {
            if (fe_function_name(fe_strip(kids[0], false), &decl))
                return fe_ptr_func(fx, decl);
            ir_place *p = fe_lower_place(fx, kids[0], &why);
            return p ? fe_ptr_addr(fx, p, clang_getCursorType(fe_strip(kids[0], false)), c)
                     : fe_ptr_unknown(fx, why);
        }
        if (text && n == 1 && strcmp(text, "*") == 0 && fe_type_is_function(t))
            return fe_lower_ptr(fx, kids[0]); /* *fp is the function, which decays to fp */
        break;
    case CXCursor_CallExpr:
        switch (fe_allocator(fx, c)) {
        case FE_ALLOC_NONE: break;
        case FE_ALLOC_REALLOC: {
            ir_ptr *p = fe_ptr_new(fx, IR_PTR_REALLOC);
            p->old = fe_lower_ptr(fx, clang_Cursor_getArgument(c, 0));
            p->size = fe_lower_int(fx, clang_Cursor_getArgument(c, 1));
            p->elem_size = fe_pointee_size(outer);
            p->elem = true;
            fx->u->n_heap_sites++;
            return p;
        }
        default: {
            n = clang_Cursor_getNumArguments(c);
            for (int i = 0; i < n; i++)
                fe_lower_effects(fx, clang_Cursor_getArgument(c, (unsigned)i));
            ir_ptr *p = fe_ptr_new(fx, IR_PTR_HEAP);
            p->zeroed = fe_allocator(fx, c) == FE_ALLOC_CALLOC;
            p->elem = true;
            fx->u->n_heap_sites++;
            return p;
        }
        }
        fe_lower_effects(fx, c);
        return fe_ptr_unknown(fx, ir_strfmt(fx->u, "pointer returned by %s", fe_text(fx, c)));
    case CXCursor_ConditionalOperator: {
        ir_ptr *r = fe_ptr_cond(fx, c);
        if (r)
            return r;
        break;
    }
    case CXCursor_BinaryOperator:
        if (fe_pointer_sum(fx, c, &base, &off, &minus)) {
            ir_expr *i = fe_lower_int(fx, off);
            if (minus)
                i = fe_fold(fx, ir_expr_unary(fx->u, fe_loc(fx, off), IR_OP_NEG, i));
            ir_ptr *p = fe_lower_ptr(fx, base);
            if (p->kind != IR_PTR_ADDR && p->kind != IR_PTR_LOAD)
                return p->kind == IR_PTR_UNKNOWN ? p : fe_ptr_unknown(fx, "pointer arithmetic");
            ir_ptr *q = fe_ptr_new(fx, p->kind);
            *q = *p;
            q->offset = p->offset ? fe_fold(fx, ir_expr_binary(fx->u, fe_loc(fx, c), IR_OP_ADD,
                                                               p->offset, i))
                                  : i;
            return q;
        }
        break;
    default: break;
    }
    ir_place *p = fe_lower_place(fx, c, &why);
    if (!p) {
        fe_lower_effects(fx, c);
        return fe_ptr_unknown(fx, why ? why : "a pointer expression");
    }
    if (fe_expr_is_array(c))
        return fe_ptr_addr(fx, p, t, c);
    ir_ptr *r = fe_ptr_new(fx, IR_PTR_LOAD);
    r->place = p;
    return r;
}

/* ---- statements on places ---- */

static void fe_copy(fe_ctx *fx, ir_loc loc, ir_place *dst, ir_place *src)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_COPY, loc);
    s->copy.dst = dst;
    s->copy.src = src;
    fe_push(fx, s);
}


/* A STORE into dst of a value of that kind (the caller sets the value). */
static ir_stmt *fe_store_new(fe_ctx *fx, ir_loc loc, ir_place *dst, ir_var_kind kind)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_STORE, loc);
    s->store.dst = dst;
    s->store.kind = kind;
    return s;
}

void fe_store_tensor(fe_ctx *fx, ir_loc loc, ir_place *dst, int src)
{
    ir_stmt *s = fe_store_new(fx, loc, dst, IR_VAR_TENSOR);
    s->store.src = src;
    if (src >= 0 && fx->u->vars[src].is_temp) {
        /* the call's value is named after the place it lands in */
        fx->u->vars[src].name = dst->text;
        fx->u->vars[src].is_temp = false;
        fx->u->vars[src].is_carrier = true;
        s->store.move = true;
    }
    fe_push(fx, s);
}

void fe_store_int(fe_ctx *fx, ir_loc loc, ir_place *dst, ir_expr *value)
{
    ir_stmt *s = fe_store_new(fx, loc, dst, IR_VAR_INT);
    s->store.value = value;
    fe_push(fx, s);
}

void fe_store_ptr(fe_ctx *fx, ir_loc loc, ir_place *dst, ir_ptr *ptr)
{
    ir_stmt *s = fe_store_new(fx, loc, dst, IR_VAR_OTHER);
    s->store.ptr = ptr;
    fe_push(fx, s);
}

void fe_fill(fe_ctx *fx, ir_loc loc, ir_place *dst, bool zero, const char *why)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_FILL, loc);
    s->fill.dst = dst;
    s->fill.zero = zero;
    s->fill.why = why;
    fe_push(fx, s);
}

/* A tensor variable that borrows the handle held in place p. */
int fe_load_tensor(fe_ctx *fx, ir_place *p, ir_loc loc)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_LOAD, loc);
    s->load.dst = ir_temp_new(fx->u, fx->func, loc);
    fx->u->vars[s->load.dst].is_borrow = true;
    s->load.src = p;
    fe_push(fx, s);
    return s->load.dst;
}

/* A pointer or struct returned by a call of a user function, into dst:
 * through a temporary unless dst is a plain variable.  False when c is
 * no such call. */
static bool fe_assign_from_call(fe_ctx *fx, ir_loc loc, ir_place *dst, CXCursor c)
{
    c = fe_strip(c, true);
    if (clang_getCursorKind(c) != CXCursor_CallExpr || fe_allocator(fx, c) != FE_ALLOC_NONE)
        return false;
    fe_callee ce = fe_callee_of(fx, c);
    if (ce.kind != FE_CALLEE_USER && ce.kind != FE_CALLEE_POINTER)
        return false;
    bool is_ptr = fe_type_is_pointer(clang_getCursorType(c));
    if (dst->n_steps == 0 && fx->u->vars[dst->var].kind == IR_VAR_OTHER) {
        fe_lower_user_call(fx, c, &ce, dst->var, IR_VAR_OTHER);
        return true;
    }
    int tmp = ir_var_new(fx->u, "<tmp>", IR_VAR_OTHER, fx->func, loc);
    fx->u->vars[tmp].is_temp = true;
    fe_lower_user_call(fx, c, &ce, tmp, IR_VAR_OTHER);
    if (is_ptr) {
        ir_ptr *p = fe_ptr_new(fx, IR_PTR_LOAD);
        p->place = fe_place_of_var(fx, tmp);
        fe_store_ptr(fx, loc, dst, p);
    } else {
        fe_copy(fx, loc, dst, fe_place_of_var(fx, tmp));
    }
    return true;
}

/* A struct value c copied into place dst: from a place, or from a call. */
static void fe_assign_record(fe_ctx *fx, ir_loc loc, ir_place *dst, CXCursor c)
{
    const char *why;
    c = fe_strip(c, false);
    if (fe_assign_from_call(fx, loc, dst, c))
        return;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        fe_lower_effects(fx, c);
        fe_fill(fx, loc, dst, false, ir_strfmt(fx->u, "struct returned by %s", fe_text(fx, c)));
        return;
    }
    if (clang_getCursorKind(c) == CXCursor_InitListExpr ||
        clang_getCursorKind(c) == CXCursor_CompoundLiteralExpr) {
        fe_init_place(fx, dst, clang_getCursorType(c), c);
        return;
    }
    ir_place *src = fe_lower_place(fx, c, &why);
    if (src) {
        fe_copy(fx, loc, dst, src);
        return;
    }
    fe_lower_effects(fx, c);
    fe_fill(fx, loc, dst, false, why);
}

/* A value of type t into place dst. */
void fe_assign_place(fe_ctx *fx, ir_loc loc, ir_place *dst, CXType t, CXCursor value)
{
    if (fe_type_is_tensor(t)) {
        int var = fe_lower_tensor(fx, value, IR_NO_VAR);
        fe_store_tensor(fx, loc, dst, var);
    } else if (fe_type_kind(t) == IR_VAR_INT) {
        fe_store_int(fx, loc, dst, fe_lower_int(fx, value));
    } else if (fe_type_is_pointer(t) && fe_type_is_tensor(clang_getCursorType(fe_strip(value, true)))) {
        /* a handle kept in a void * (an object list, a callback's argument): the cell
         * holds the handle, and a cast back to tl_tensor * reads it */
        fe_store_tensor(fx, loc, dst, fe_lower_tensor(fx, fe_strip(value, true), IR_NO_VAR));
    } else if (fe_type_is_pointer(t)) {
        if (!fe_assign_from_call(fx, loc, dst, value))
            fe_store_ptr(fx, loc, dst, fe_lower_ptr(fx, value));
    } else if (fe_type_is_record(t) || fe_type_is_array(t)) {
        fe_assign_record(fx, loc, dst, value);
    } else {
        fe_lower_effects(fx, value);
        if (!fe_type_is_float(t))
            fe_fill(fx, loc, dst, false, "a value of a type the analysis does not model");
    }
}

/* ---- initializers ---- */

typedef struct fe_fields {
    CXCursor f[256];
    int n;
} fe_fields;

static enum CXVisitorResult fe_field_visit(CXCursor c, CXClientData data)
{
    fe_fields *fs = data;
    if (fs->n < 256)
        fs->f[fs->n] = c;
    fs->n++;
    return CXVisit_Continue;
}

/* A designated initializer (`.dim = 64`, `[2] = x`): libclang shows it as
 * an unexposed expression of type void whose last child is the value. */
static bool fe_is_designated(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_UnexposedExpr &&
           clang_getCursorType(c).kind == CXType_Void && fe_children(c, NULL, 0) >= 2;
}

static int fe_field_named(fe_ctx *fx, const fe_fields *fs, CXCursor ref)
{
    const char *name = fe_spelling(fx, ref);
    for (int i = 0; i < fs->n && i < 256; i++)
        if (strcmp(fe_spelling(fx, fs->f[i]), name) == 0)
            return i;
    return -1;
}

static void fe_init_record(fe_ctx *fx, ir_place *dst, CXType t, CXCursor *kids, int n)
{
    fe_fields fs = {.n = 0};
    clang_Type_visitFields(fe_canon(t), fe_field_visit, &fs);
    int pos = 0;
    for (int i = 0; i < n; i++) {
        CXCursor value = kids[i];
        if (fe_is_designated(value)) {
            CXCursor d[2];
            int nd = fe_children(value, d, 2);
            if (nd != 2 || clang_getCursorKind(d[0]) != CXCursor_MemberRef ||
                (pos = fe_field_named(fx, &fs, d[0])) < 0) {
                fe_fill(fx, fe_loc(fx, value), dst, false, "a nested designated initializer");
                return;
            }
            value = d[1];
        }
        if (pos >= fs.n || pos >= 256)
            return;
        CXCursor field = fs.f[pos++];
        ir_place *p = fe_place_field(fx, dst, field, value);
        p->text = ir_strfmt(fx->u, "%s.%s", dst->text, p->steps[p->n_steps - 1].name);
        fe_init_place(fx, p, clang_getCursorType(field), value);
    }
}

static void fe_init_array(fe_ctx *fx, ir_place *dst, CXType t, CXCursor *kids, int n)
{
    CXType elem = clang_getArrayElementType(fe_canon(t));
    int64_t pos = 0;
    for (int i = 0; i < n; i++) {
        CXCursor value = kids[i];
        if (fe_is_designated(value)) {
            CXCursor d[2];
            if (fe_children(value, d, 2) != 2 || !fe_eval_int(d[0], &pos)) {
                fe_fill(fx, fe_loc(fx, value), dst, false, "a nested designated initializer");
                return;
            }
            value = d[1];
        }
        ir_loc loc = fe_loc(fx, value);
        ir_place *p = fe_place_index(fx, dst, ir_expr_const(fx->u, loc, pos), value);
        p->text = ir_strfmt(fx->u, "%s[%lld]", dst->text, (long long)pos++);
        fe_init_place(fx, p, elem, value);
    }
}

void fe_init_place(fe_ctx *fx, ir_place *dst, CXType t, CXCursor init)
{
    CXCursor c = fe_strip(init, false);
    if (clang_getCursorKind(c) == CXCursor_CompoundLiteralExpr) {
        CXCursor kids[2];
        int n = fe_children(c, kids, 2);
        if (n >= 1 && clang_getCursorKind(kids[n - 1]) == CXCursor_InitListExpr)
            c = kids[n - 1];
    }
    if (clang_getCursorKind(c) != CXCursor_InitListExpr) {
        fe_assign_place(fx, fe_loc(fx, init), dst, t, init);
        return;
    }
    ir_loc loc = fe_loc(fx, c);
    int n = fe_children(c, NULL, 0);
    CXCursor *kids = tl_xmalloc(sizeof *kids * (size_t)(n + 1));
    n = fe_children(c, kids, n);
    if (fe_type_is_record(t) || fe_type_is_array(t))
        fe_fill(fx, loc, dst, true, NULL); /* members not named are zero */
    if (fe_type_is_record(t))
        fe_init_record(fx, dst, t, kids, n);
    else if (fe_type_is_array(t))
        fe_init_array(fx, dst, t, kids, n);
    else if (n >= 1) /* a scalar in braces: int x = {3}; */
        fe_init_place(fx, dst, t, kids[0]);
    free(kids);
}

/* ---- calls of functions not in this file ---- */

/* After an external call got pointer argument arg, what it points to is
 * no longer known (fread, scanf), or is zero (memset 0), or a copy
 * (memcpy).  Pointers to const are read only. */
void fe_external_pointer_arg(fe_ctx *fx, CXCursor call, const char *callee, int i, CXCursor arg)
{
    CXType t = fe_canon(clang_getCursorType(arg));
    if (t.kind != CXType_Pointer || fe_type_is_tensor(t) ||
        clang_isConstQualifiedType(clang_getPointeeType(t)) || strcmp(callee, "free") == 0 ||
        fe_type_is_function(clang_getPointeeType(t)))
        return; /* (a function given to a library is no object it writes) */
    ir_ptr *p = fe_lower_ptr(fx, arg);
    if (p->kind != IR_PTR_ADDR && p->kind != IR_PTR_LOAD)
        return;
    ir_place *target = p->kind == IR_PTR_ADDR ? p->place
                       : fe_place_deref(fx, p->place, p->offset, arg);
    if (p->kind == IR_PTR_ADDR && p->offset)
        return; /* into the middle of an array: leave the rest alone */
    ir_loc loc = fe_loc(fx, call);
    int64_t v;
    if (strcmp(callee, "memset") == 0 && i == 0 && clang_Cursor_getNumArguments(call) == 3 &&
        fe_eval_int(clang_Cursor_getArgument(call, 1), &v) && v == 0) {
        fe_fill(fx, loc, target, true, NULL);
        return;
    }
    if ((strcmp(callee, "memcpy") == 0 || strcmp(callee, "memmove") == 0) && i == 0 &&
        clang_Cursor_getNumArguments(call) == 3) {
        ir_ptr *src = fe_lower_ptr(fx, clang_Cursor_getArgument(call, 1));
        ir_place *from = src->kind == IR_PTR_ADDR && !src->offset ? src->place
                         : src->kind == IR_PTR_LOAD ? fe_place_deref(fx, src->place, src->offset, arg)
                                                    : NULL;
        if (from) {
            fe_copy(fx, loc, target, from);
            fx->cur->stmts[fx->cur->n_stmts - 1]->copy.arrays = true;
            return;
        }
    }
    fe_fill(fx, loc, target, false,
            ir_strfmt(fx->u, "%s written by %s()", target->text, callee));
}
