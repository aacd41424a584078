Generated from docs/cuda.md by tests/docs/extract.py: do not edit; edit the
page and run `tests/docs/extract.py .` (ctest's docs.examples runs this file
with cram and fails when it no longer matches the page).

  $ . "$TESTDIR/setup.sh"

  $ TL_CUDA_EMULATION=1 tensorlint verify samples/worksheet/block1.c
  program exited with status 0 after * s (glob)
  CUDA emulated on the host: allocator bytes compared, kernel times not
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
    CUDA allocated peak: 640 MiB predicted, 640 MiB measured; reserved peak: 640 MiB predicted, 640 MiB measured
  verify: 7 calls and 7 call sites compared, 75 fields, 0 disagreements
