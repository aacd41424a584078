/* vendor_tune is declared in the project's header but defined by no unit:
 * a library function, which may write through the pointer it is given.  A
 * unit captured alone takes such a function for another unit's; the
 * program's link finds no definition and the unit is lowered again, so the
 * report from captures is the report from parsing. */
#include "rows.h"
#include "vendor.h"

int main(void) // no-verify: vendor_tune is defined by no unit (the program does not link)
{
    int dims[2] = {4, 8};
    tl_tensor *a = rows_make(dims[0], dims[1]);
    vendor_tune(dims);
    tl_tensor *b = rows_make(dims[0], dims[1]);
    tl_release(a);
    tl_release(b);
    return 0;
}
