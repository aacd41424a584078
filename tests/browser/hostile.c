/*
 * A file from an untrusted pull request: markup in comments, strings and
 * the file's text must show as text on the memory page and run nothing.
 * </script><script>window.__pwned = 'comment';</script>
 * <img src=x onerror="window.__pwned = 'img'">
 * <svg onload="window.__pwned = 'svg'"></svg> &lt;b&gt; &amp; \u2028
 */
#include <stdio.h>
#include <tensorlint/tensor.h>

static const char *banner = "</script><script>window.__pwned = 'string'</script>";
static const char *image = "<img src=x onerror=\"window.__pwned = 'string img'\">";

int main(void)
{
    /* <script>window.__pwned = 'in main'</script> */
    tl_tensor *x = tl_ones(TL_SHAPE(64, 32), TL_F32, TL_CPU); /* <img src=y onerror=alert(1)> */
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *y = tl_contiguous(t); /* "</script>" */
    printf("%s %s\n", banner, image);
    tl_release(t);
    tl_release(x);
    tl_release(y);
    return 0;
}
