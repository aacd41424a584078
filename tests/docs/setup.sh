# Sourced by every tests/docs/*.t (extract.py writes the line): the
# tensorlint built here first on PATH, and the source root as the working
# directory, as the pages' examples assume.  TL_TOOL is the tool and
# TL_BUILD_DIR its build tree (tests/CMakeLists.txt sets both).
cd "$TESTDIR/../.." || exit 1
PATH="$(dirname "$TL_TOOL"):$PATH"
export PATH
