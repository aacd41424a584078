// bad-input: report {}
// exit: 0
// message: clang_warnings.c:21:20: warning: incompatible integer to pointer conversion .*\[-Wint-conversion\]
// message: note: expanded from macro 'tl_add'
// message: clang_warnings.c:24:5: warning: implicit declaration of function 'helper' is invalid in C99 \[-Wimplicit-function-declaration\]
// bad-input: report {} -- -Wall
// exit: 0
// message: clang_warnings.c:23:5: warning: variable 'z' is uninitialized when used here \[-Wuninitialized\]
// bad-input: check {}
// exit: 0
// message: clang_warnings.c:21:20: warning: incompatible integer to pointer conversion
// bad-input: report {} -- -Werror=int-conversion
// exit: 2
// message: clang_warnings.c:21:20: error: incompatible integer to pointer conversion
// message: does not compile \(1 error\); not analysed
#include <tensorlint/tensor.h>
/* clang's warnings are shown as clang-tidy shows them, -W flags honoured. */
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU);
    tl_tensor *y = tl_add(x, 5);
    tl_tensor *z;
    tl_release(z);
    helper(x);
    return 0;
}
