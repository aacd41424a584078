// bad-input: check {}
// exit: 2
// message: empty_list.c:10:20: error: expected expression
// message: note: expanded from macro 'TL_LIST'
#include <tensorlint/tensor.h>
/* TL_LIST() holds 1 to 16 tensors: empty, it is a C error, as torch.cat([])
 * is ("expected a non-empty list of Tensors"). */
int main(void)
{
    tl_tensor *c = tl_cat(TL_LIST(), 0);
    tl_release(c);
    return 0;
}
