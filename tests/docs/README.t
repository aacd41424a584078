Generated from README.md by tests/docs/extract.py: do not edit; edit the
page and run `tests/docs/extract.py .` (ctest's docs.examples runs this file
with cram and fails when it no longer matches the page).

  $ . "$TESTDIR/setup.sh"

  $ tensorlint report -p "$TL_BUILD_DIR" samples/multifile/src/*.c | sed -n '/^function main/,/^moved/p' | grep .
  function main (*/samples/multifile/src/main.c) (glob)
  line  name  op     shape      strides   offset  dtype  device  view/copy  storage  bytes    moved    keeps alive  why
  8     x     randn  (64, 784)  (784, 1)  0       f32    cpu     new        S4       196 KiB  196 KiB  -            randn allocates
  storages:
    S4      196 KiB  cpu   allocated line 8 in main.c (randn x)  freed line 10 in main.c
    S11     196 KiB  cpu   allocated line 8 in main.c (randn x)  freed line 10 in main.c
    S18     196 KiB  cpu   allocated line 8 in main.c (randn x)  freed line 10 in main.c
    S25     196 KiB  cpu   allocated line 8 in main.c (randn x)  freed line 10 in main.c
  live at end: 0 B
  peak: 1.09 MiB at line 9 in main.c, live there: S0 784 KiB, S1 1 KiB, S2 10 KiB, S3 40 B, S4 196 KiB, S5 64 KiB, S6 64 KiB
    live at the peak, largest first:
      S0        784 KiB  made line 7 in weights.c  w
      S4        196 KiB  made line 8 in main.c  x
      S5         64 KiB  made line 6 in layers.c  xw
      S6         64 KiB  made line 7 in layers.c  y
      S2         10 KiB  made line 9 in weights.c  (no name: a temporary or a copy in memory)
      S1          1 KiB  made line 8 in weights.c  b
      S3           40 B  made line 10 in weights.c  (no name: a temporary or a copy in memory)
  moved: 6.96 MiB in 32 calls
  $ tensorlint verify -p "$TL_BUILD_DIR" samples/multifile/src/*.c | tail -1
  verify: 32 calls and 9 call sites compared, 161 fields, 0 disagreements
  $ tensorlint verify samples/worksheet/block1.c -- -DDEVICE=TL_CPU
  program exited with status 0 after * s (glob)
     line  op             agreement
       23  randn          ok
       24  transpose      ok
       25  contiguous     ok
       26  reshape        ok
       27  to             ok
       28  slice          ok
       29  clone          ok
    executions of 7 call sites compared: as predicted
    end of main: live 640 MiB predicted, 640 MiB measured
    peak: 640 MiB predicted (line 29), 640 MiB measured
  verify: 7 calls and 7 call sites compared, 69 fields, 0 disagreements
  $ tensorlint check samples/worksheet/block2.c
  samples/worksheet/block2.c:28:20: warning: tl_reshape silently copies 64 KiB of 'p' (line 27): dims 1 and 2 do not merge (stride 16384 != 1 x 4096) [hidden-copy]
  samples/worksheet/block2.c:27:20: note: the strides (4096, 16384, 1) that cannot merge come from tl_permute here
  $ tensorlint verify samples/models/decoder.c -- -DDEVICE=TL_CPU | tail -1
  verify: 1991 calls and 82 call sites compared, 5386 fields, 0 disagreements
