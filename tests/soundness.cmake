# The differential soundness test (tests/soundness/run.py, docs/soundness.md):
# random programs in the styles of real ones, built against the runtime, run
# at random sizes and compared with every claim of their reports.  One entry,
# a fixed seed; it fails on any lie.  tests/soundness/run.py runs any number
# with any seed, or only chosen styles (--styles).
if(TARGET tensorlint_cli)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    set(TL_SOUNDNESS_COUNT 30 CACHE STRING "programs the soundness test generates")
    set(sound_cflags "")
    if(TL_SANITIZE)
      set(sound_cflags "-fsanitize=address,undefined")
    endif()
    add_test(NAME soundness.random
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/soundness/run.py
                     --tool $<TARGET_FILE:tensorlint_cli>
                     --include ${PROJECT_SOURCE_DIR}/runtime/include
                     --lib $<TARGET_FILE_DIR:tensorlint>
                     --cflags=${sound_cflags}
                     --count ${TL_SOUNDNESS_COUNT} --seed 1 --runs 2 --jobs 2)
    set_tests_properties(soundness.random PROPERTIES LABELS "soundness" TIMEOUT 1200)
  endif()
endif()
