/*
 * deep.h: run recursive work on a stack deep enough for deep input.
 *
 * The parse (libclang's parser recurses once per nested statement), the
 * lowering, the interpreter and the checks all walk nested statements
 * recursively: a program with tens of thousands of nested `if`s or an
 * else-if chain of 50,000 arms needs far more than a thread's usual 8 MiB.
 */
#ifndef TL_DEEP_H
#define TL_DEEP_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of stack reserved for tl_run_deep: address space, not memory (the
 * pages the work touches are the memory it uses).  1 GiB holds an else-if
 * chain of 50,000 arms through the parse and the analysis. */
#define TL_DEEP_STACK ((size_t)1 << 30)

/* fn(arg) on a thread with TL_DEEP_STACK bytes of stack, joined before it
 * returns; on the calling thread when no such thread can be made (the
 * address space is limited), where only a shallower nesting is followed.
 * Thread-local state fn sets stays on that thread. */
void tl_run_deep(void (*fn)(void *), void *arg);
/* The same with a stack of the given bytes. */
void tl_run_deep_size(void (*fn)(void *), void *arg, size_t bytes);

/* Bytes of stack recursive work keeps in reserve (a quarter of a smaller
 * stack): when less remains, it stops going deeper, and says so, rather
 * than overflow. */
#define TL_STACK_RESERVE ((size_t)4 << 20)

/* True when the calling thread has less than its reserve of stack left
 * below the caller's frame (false when its bounds cannot be read). */
bool tl_stack_low(void);

#endif
