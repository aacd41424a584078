/*
 * fuzz_main.c: a driver for the fuzz targets where libFuzzer is not linked
 * (gcc builds): each argument is an input file, or a folder of them, run
 * once; "-runs=N" adds N inputs of random bytes (seeded by "-seed=S", 1 by
 * default), sizes 0 to 4096.  The exit status is 0 when every input ran;
 * a target reports a bug by crashing, as under libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long n_files;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;
    do {
        if (len == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 4096)))
            abort();
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    n_files++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    struct dirent *e;
    int rc = 0;
    if (!d)
        return 1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (!p)
            abort();
        sprintf(p, "%s/%s", path, e->d_name);
        rc |= run_path(p);
        free(p);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    long runs = 0;
    unsigned seed = 1;
    int rc = 0;
    for (int k = 1; k < argc; k++) {
        if (strncmp(argv[k], "-runs=", 6) == 0)
            runs = atol(argv[k] + 6);
        else if (strncmp(argv[k], "-seed=", 6) == 0)
            seed = (unsigned)atol(argv[k] + 6);
        else if (argv[k][0] != '-')
            rc |= run_path(argv[k]);
    }
    srand(seed);
    uint8_t *buf = malloc(4096);
    if (!buf)
        abort();
    for (long r = 0; r < runs; r++) {
        size_t len = (size_t)rand() % 4097;
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)rand();
        LLVMFuzzerTestOneInput(buf, len);
    }
    free(buf);
    printf("%s: %ld input files and %ld random inputs ran\n", argv[0], n_files, runs);
    return rc;
}
