Generated from docs/ci.md by tests/docs/extract.py: do not edit; edit the
page and run `tests/docs/extract.py .` (ctest's docs.examples runs this file
with cram and fails when it no longer matches the page).

  $ . "$TESTDIR/setup.sh"

  $ tensorlint capture -q -p "$TL_BUILD_DIR" samples/multifile/src/*.c
  $ TENSORLINT_CAPTURE_STATS=1 tensorlint report -p "$TL_BUILD_DIR" samples/multifile/src/*.c > /dev/null
  tensorlint report: captures: 4 units read, 0 parsed
