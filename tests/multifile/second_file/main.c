/* The defects are in the second file: every line a message names there is
 * that file's line, with the file's name (not the program's line). */
#include "second.h"

int main(void)
{
    tl_tensor *h = second_head();
    tl_tensor *r = second_roundtrip(h);
    tl_print(r);
    tl_release(r);
    tl_release(h);
    return 0;
}
