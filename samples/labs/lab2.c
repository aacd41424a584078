/*
 * Lab 2, the storage-sharing proof: one buffer, many headers.
 *   a = torch.ones(1000); b = a.view(1000); c = a[10:]
 * a and b share one 4,000-byte storage; c starts 10 elements (40 bytes)
 * in.  Releasing a and b leaves the 4,000 bytes alive until c goes.
 */
#include <stdio.h>
#include <tensorlint/tensor.h>

static void live(const char *when)
{
    tl_memory_stats s = tl_memory_stats_of(TL_CPU);
    printf("%-22s live_bytes=%lld storages=%lld\n", when, (long long)s.live_bytes,
           (long long)s.n_live);
}

int main(void)
{
    tl_tensor *a = tl_ones(TL_SHAPE(1000), TL_F32, TL_CPU);
    tl_tensor *b = tl_view(a, TL_SHAPE(1000));
    tl_tensor *c = tl_slice(a, 0, 10, TL_END, 1);
    printf("a shares storage with b: %s\n", tl_shares_storage(a, b) ? "True" : "False");
    printf("c.storage_offset(): %lld\n", (long long)tl_storage_offset(c));
    printf("c.data_ptr() - a.data_ptr(): %lld bytes\n",
           (long long)((tl_storage_offset(c) - tl_storage_offset(a)) * tl_element_size(TL_F32)));
    live("after a, b, c:");
    tl_release(a);
    tl_release(b);
    live("after releasing a, b:");
    tl_release(c);
    live("after releasing c:");
    return 0;
}
