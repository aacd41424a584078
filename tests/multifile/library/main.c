/* The caller owns what the library returns: it releases all but one, whose
 * handle it overwrites (the warning is here, its note in lib.c). */
#include "lib.h"

int main(void) // expected-func: peak=1168 end=128 calls=4
{
    tl_tensor *f = lib_features(32, 8);
    tl_tensor *head = lib_first_rows(f, 4);
    tl_tensor *n = lib_normalise(head);
    tl_print(n);
    n = NULL; // expected-warning {{'n' is overwritten while its handle keeps 128 B alive (the storage of 'y' (line 17 of lib.c))}} {{[leaked-tensor]}}
    tl_release(head);
    tl_release(f);
    return 0;
}
