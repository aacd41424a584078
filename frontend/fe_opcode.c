/*
 * fe_opcode.c: the operator of a unary, binary or compound-assignment
 * cursor, as clang parsed it.
 *
 * libclang 14 has no accessor for an operator's kind (one came with
 * libclang 17).  Reading it from the main file's bytes between the operands
 * is right only where the operator is written in the file: inside a macro
 * it is not (`#define ASSIGN(v, x) v = x`, then `ASSIGN(n, 64)`: between
 * the operands in the file stands the invocation's comma).  So the operator
 * is read from the node clang built.  An expression cursor's data[1] is the
 * clang::Stmt; its first 32-bit word holds the statement class (bits 0-7),
 * the expression's dependence, value kind and object kind (bits 8-17) and,
 * for an operator, the opcode from bit 18 (clang 14's Stmt.h bit fields).
 *
 * That layout belongs to one clang version, so it is checked once per
 * process: a sample with every operator of fe_ops[] (the sample is made
 * from the table) is parsed and each node's opcode must be the table's.
 * When the check fails, fe_ast_operator answers NULL and the caller reads
 * the file's bytes, where an operator inside a macro stays unknown (with a
 * note), never a guess.
 */
#include "fe_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One C operator: its spelling, its clang 14 opcode (BinaryOperatorKind or
 * UnaryOperatorKind of OperationKinds.def), and its form. */
typedef struct fe_op_info {
    const char *text;
    unsigned opcode;
    enum { FE_OP_BINARY, FE_OP_PREFIX, FE_OP_POSTFIX } form;
} fe_op_info;

static const fe_op_info fe_ops[] = {
    {"*", 2, FE_OP_BINARY},     {"/", 3, FE_OP_BINARY},    {"%", 4, FE_OP_BINARY},
    {"+", 5, FE_OP_BINARY},     {"-", 6, FE_OP_BINARY},    {"<<", 7, FE_OP_BINARY},
    {">>", 8, FE_OP_BINARY},    {"<", 10, FE_OP_BINARY},   {">", 11, FE_OP_BINARY},
    {"<=", 12, FE_OP_BINARY},   {">=", 13, FE_OP_BINARY},  {"==", 14, FE_OP_BINARY},
    {"!=", 15, FE_OP_BINARY},   {"&", 16, FE_OP_BINARY},   {"^", 17, FE_OP_BINARY},
    {"|", 18, FE_OP_BINARY},    {"&&", 19, FE_OP_BINARY},  {"||", 20, FE_OP_BINARY},
    {"=", 21, FE_OP_BINARY},    {"*=", 22, FE_OP_BINARY},  {"/=", 23, FE_OP_BINARY},
    {"%=", 24, FE_OP_BINARY},   {"+=", 25, FE_OP_BINARY},  {"-=", 26, FE_OP_BINARY},
    {"<<=", 27, FE_OP_BINARY},  {">>=", 28, FE_OP_BINARY}, {"&=", 29, FE_OP_BINARY},
    {"^=", 30, FE_OP_BINARY},   {"|=", 31, FE_OP_BINARY},  {",", 32, FE_OP_BINARY},
    {"++", 0, FE_OP_POSTFIX},   {"--", 1, FE_OP_POSTFIX},  {"++", 2, FE_OP_PREFIX},
    {"--", 3, FE_OP_PREFIX},    {"&", 4, FE_OP_PREFIX},    {"*", 5, FE_OP_PREFIX},
    {"+", 6, FE_OP_PREFIX},     {"-", 7, FE_OP_PREFIX},    {"~", 8, FE_OP_PREFIX},
    {"!", 9, FE_OP_PREFIX},
};
#define FE_N_OPS (sizeof fe_ops / sizeof fe_ops[0])

/* The opcode bits of an operator node (6 for a binary one, 5 for a unary one). */
static bool fe_node_opcode(CXCursor c, unsigned *opcode)
{
    const uint32_t *word = c.data[1];
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!word || (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator &&
                  k != CXCursor_UnaryOperator))
        return false;
    *opcode = (*word >> 18) & (k == CXCursor_UnaryOperator ? 0x1fu : 0x3fu);
    return true;
}

static const fe_op_info *fe_op_find(bool unary, unsigned opcode)
{
    for (size_t i = 0; i < FE_N_OPS; i++)
        if ((fe_ops[i].form != FE_OP_BINARY) == unary && fe_ops[i].opcode == opcode)
            return &fe_ops[i];
    return NULL;
}

/* ---- the check of the layout ---- */

typedef struct fe_op_check {
    size_t next; /* the entry of fe_ops the next operator node must be */
    bool ok;
} fe_op_check;

static enum CXChildVisitResult fe_op_check_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_op_check *chk = data;
    unsigned opcode;
    if (!fe_node_opcode(c, &opcode))
        return CXChildVisit_Recurse;
    bool unary = clang_getCursorKind(c) == CXCursor_UnaryOperator;
    if (chk->next >= FE_N_OPS || (fe_ops[chk->next].form != FE_OP_BINARY) != unary ||
        fe_ops[chk->next].opcode != opcode)
        chk->ok = false;
    chk->next++;
    return CXChildVisit_Continue; /* operands are plain names */
}

/* "void f(int a, int b, int *p) { a * b; ... ++a; *p; }", one statement per entry. */
static char *fe_op_sample(void)
{
    size_t cap = 64 + FE_N_OPS * 16, n = 0;
    char *s = tl_xmalloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "void f(int a, int b, int *p) {\n");
    for (size_t i = 0; i < FE_N_OPS; i++) {
        const fe_op_info *op = &fe_ops[i];
        const char *operand = op->opcode == 5 && op->form == FE_OP_PREFIX ? "p" : "a";
        if (op->form == FE_OP_BINARY)
            n += (size_t)snprintf(s + n, cap - n, "a %s b;\n", op->text);
        else if (op->form == FE_OP_PREFIX)
            n += (size_t)snprintf(s + n, cap - n, "%s%s;\n", op->text, operand);
        else
            n += (size_t)snprintf(s + n, cap - n, "%s%s;\n", operand, op->text);
    }
    snprintf(s + n, cap - n, "}\n");
    return s;
}

static bool fe_op_layout_ok;

static void fe_op_layout_check(void)
{
    char *text = fe_op_sample();
    struct CXUnsavedFile file = {"tensorlint-opcodes.c", text, (unsigned long)strlen(text)};
    const char *args[] = {"-xc", "-std=c11", "-w"};
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    if (idx && clang_parseTranslationUnit2(idx, file.Filename, args, 3, &file, 1,
                                           CXTranslationUnit_None, &tu) == CXError_Success) {
        fe_op_check chk = {0, true};
        clang_visitChildren(clang_getTranslationUnitCursor(tu), fe_op_check_visit, &chk);
        fe_op_layout_ok = chk.ok && chk.next == FE_N_OPS;
        clang_disposeTranslationUnit(tu);
    }
    if (idx)
        clang_disposeIndex(idx);
    free(text);
}

bool fe_ast_operators(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fe_op_layout_check);
    return fe_op_layout_ok;
}

const char *fe_ast_operator(CXCursor c, bool *postfix)
{
    unsigned opcode;
    if (!fe_ast_operators() || !fe_node_opcode(c, &opcode))
        return NULL;
    const fe_op_info *op = fe_op_find(clang_getCursorKind(c) == CXCursor_UnaryOperator, opcode);
    if (!op)
        return NULL; /* __real, __imag, __extension__, co_await: none of the tool's */
    *postfix = op->form == FE_OP_POSTFIX;
    return op->text;
}
