// bad-input: report {}
// exit: 0
// message: no function uses the tensor API
#include <tensorlint/tensor.h>
int main(void) { return 0; }
