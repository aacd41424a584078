# The fuzz targets (tests/fuzz/, docs/fuzzing.md): the layout rules on
# random op sequences, C source through the whole analyzer, the trace
# reader of verify.  With TL_FUZZ=ON (clang only) they are libFuzzer
# programs and ctest runs each for a few seconds; otherwise fuzz_main.c
# drives them over their seeds and a few thousand random inputs, so every
# build runs them under its sanitizers.
set(TL_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set(TL_FUZZ_SEEDS_rules ${TL_FUZZ_DIR}/corpus/rules)
set(TL_FUZZ_SEEDS_frontend ${PROJECT_SOURCE_DIR}/samples ${CMAKE_CURRENT_SOURCE_DIR}/bad-input/cases)
set(TL_FUZZ_SEEDS_trace ${TL_FUZZ_DIR}/corpus/trace)
set(TL_FUZZ_RUNS_rules 20000)
set(TL_FUZZ_RUNS_frontend 0)
set(TL_FUZZ_RUNS_trace 300)
foreach(t rules frontend trace)
  if(TL_FUZZ)
    add_executable(fuzz_${t} ${TL_FUZZ_DIR}/fuzz_${t}.c)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    set(corpus ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus/${t})
    add_test(NAME fuzz.${t} COMMAND sh -c "mkdir -p '${corpus}' && exec \"$0\" -max_total_time=5 -dict=${TL_FUZZ_DIR}/fuzz.dict -timeout=20 '${corpus}' $*"
             $<TARGET_FILE:fuzz_${t}> ${TL_FUZZ_SEEDS_${t}})
  else()
    add_executable(fuzz_${t} ${TL_FUZZ_DIR}/fuzz_${t}.c ${TL_FUZZ_DIR}/fuzz_main.c)
    add_test(NAME fuzz.${t} COMMAND fuzz_${t} -runs=${TL_FUZZ_RUNS_${t}} ${TL_FUZZ_SEEDS_${t}})
  endif()
  set_tests_properties(fuzz.${t} PROPERTIES LABELS "fuzz" TIMEOUT 600)
endforeach()
target_link_libraries(fuzz_rules PRIVATE tl_meta)
target_link_libraries(fuzz_frontend PRIVATE tl_frontend tl_analysis)
target_link_libraries(fuzz_trace PRIVATE tl_frontend tl_analysis)
