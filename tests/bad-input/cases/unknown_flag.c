// bad-input: report {} -- -fbogus-flag
// exit: 2
// message: tensorlint: error: unknown argument: '-fbogus-flag'
// message: unknown_flag.c does not compile \(1 error\); not analysed
// bad-input: check {} -- -fbogus-flag
// exit: 2
// message: error: unknown argument: '-fbogus-flag'
#include <tensorlint/tensor.h>
/* An unknown compiler flag is an error, as in clang. */
int main(void) { return 0; }
