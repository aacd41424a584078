/*
 * deep.c: a thread with a deep stack for recursive work (deep.h).
 */
#define _GNU_SOURCE /* pthread_getattr_np */
#include "deep.h"

#include <pthread.h>
#include <stdint.h>

typedef struct tl_deep {
    void (*fn)(void *);
    void *arg;
} tl_deep;

static void *tl_deep_main(void *data)
{
    tl_deep *d = data;
    d->fn(d->arg);
    return NULL;
}

void tl_run_deep(void (*fn)(void *), void *arg)
{
    tl_run_deep_size(fn, arg, TL_DEEP_STACK);
}

void tl_run_deep_size(void (*fn)(void *), void *arg, size_t bytes)
{
    tl_deep d = {fn, arg};
    pthread_attr_t attr;
    pthread_t thread;
    bool made = pthread_attr_init(&attr) == 0;
    if (made) {
        made = pthread_attr_setstacksize(&attr, bytes) == 0 &&
               pthread_create(&thread, &attr, tl_deep_main, &d) == 0;
        pthread_attr_destroy(&attr);
    }
    if (made)
        pthread_join(thread, NULL);
    else
        fn(arg);
}

/* The lowest address of this thread's stack (stacks grow down on every
 * target this builds for), found once per thread; 0 when not known. */
static _Thread_local uintptr_t tl_stack_floor;
static _Thread_local size_t tl_stack_reserve;
static _Thread_local bool tl_stack_known;

bool tl_stack_low(void)
{
    if (!tl_stack_known) {
        tl_stack_known = true;
        pthread_attr_t attr;
        void *lo;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
                tl_stack_floor = (uintptr_t)lo;
                tl_stack_reserve = size / 4 < TL_STACK_RESERVE ? size / 4 : TL_STACK_RESERVE;
            }
            pthread_attr_destroy(&attr);
        }
    }
    char here;
    uintptr_t sp = (uintptr_t)&here;
    return tl_stack_floor != 0 && sp - tl_stack_floor < tl_stack_reserve;
}
