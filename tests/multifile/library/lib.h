/* A small library: every function returns a handle its caller owns. */
#ifndef LIB_H
#define LIB_H
#include <tensorlint/tensor.h>

tl_tensor *lib_features(int n, int d);
tl_tensor *lib_first_rows(tl_tensor *t, int k);
tl_tensor *lib_normalise(tl_tensor *t);
#endif
