# GPU tests (tests/gpu/test_gpu_*.c), label "gpu": each exits 77 when no CUDA
# device is usable, which ctest reports as skipped (SKIP_RETURN_CODE 77).
# Registered in every build; without CUDA they always skip.
#
# The same programs run a second time on the emulated CUDA device
# (TL_CUDA_EMULATION=1, cuda/src/cuda_emulation.c) as gpu_emu.<name>, label
# "emulation": every build, no GPU needed, the real caching allocator and
# dispatch with host kernels.  Where a GPU is usable, gpu.<name> runs on it.
#
# The ops and allocator tests are also built against the fake backend
# (tests/gpu/fake_backend.h, TL_GPU_FAKE) as gpu_fake.<name>, label "unit":
# that checks the GPU tests' own logic on any machine.  The worksheet test
# needs a real device (full-size blocks) and has no fake build.
#
# For bench/gpu-check.sh: the worksheet samples built for TL_CUDA
# (sample_cuda_worksheet_<name>) and the copy-bandwidth program
# (gpu_bandwidth, CUDA builds only).
if(TL_HAVE_CUDA)
  find_package(CUDAToolkit REQUIRED)
endif()

function(tl_gpu_program target src)
  add_executable(${target} ${src})
  target_link_libraries(${target} PRIVATE tensorlint tl_meta tl_alloc_policy PkgConfig::JANSSON m)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/rules ${PROJECT_SOURCE_DIR}/runtime/core
    ${PROJECT_SOURCE_DIR}/runtime/kernels
                             ${PROJECT_SOURCE_DIR}/cuda/src ${CMAKE_CURRENT_SOURCE_DIR}/gpu)
  target_compile_definitions(${target} PRIVATE TL_SOURCE_DIR_DEFAULT="${PROJECT_SOURCE_DIR}")
  target_compile_options(${target} PRIVATE -Wno-unused-variable -Wno-unused-but-set-variable)
  if(TL_HAVE_CUDA)
    target_link_libraries(${target} PRIVATE CUDA::cudart)
    target_compile_definitions(${target} PRIVATE TL_HAVE_CUDA=1)
  endif()
endfunction()

file(GLOB TL_GPU_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gpu/test_gpu_*.c)
foreach(src ${TL_GPU_TESTS})
  get_filename_component(name ${src} NAME_WE)
  string(REPLACE "test_gpu_" "" short ${name})
  tl_gpu_program(${name} ${src})
  add_test(NAME gpu.${short} COMMAND ${name})
  set_tests_properties(gpu.${short} PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;TL_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  # Emulated, the worksheet leaves out block3 at full size: its 2.1-TFLOP
  # matmul takes minutes on a CI host (verify.samples runs block3 scaled).
  set(emu_args "")
  if(short STREQUAL "worksheet")
    set(emu_args block1 block1_release block2 stretch)
  endif()
  add_test(NAME gpu_emu.${short} COMMAND ${name} ${emu_args})
  set_tests_properties(gpu_emu.${short} PROPERTIES LABELS "emulation" TIMEOUT 900
    ENVIRONMENT "TL_CUDA_EMULATION=1;TL_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  if(NOT short STREQUAL "worksheet")
    tl_gpu_program(${name}_fake ${src})
    target_compile_definitions(${name}_fake PRIVATE TL_GPU_FAKE=1)
    add_test(NAME gpu_fake.${short} COMMAND ${name}_fake)
    set_tests_properties(gpu_fake.${short} PROPERTIES LABELS "unit"
      ENVIRONMENT "OPENBLAS_NUM_THREADS=1;TL_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  endif()
endforeach()

# The kernels' element helpers on the host (built in cuda/CMakeLists.txt, CUDA builds only).
if(TARGET test_cuda_helpers)
  add_test(NAME unit.cuda_helpers COMMAND test_cuda_helpers)
  set_tests_properties(unit.cuda_helpers PROPERTIES LABELS "unit")
endif()

file(GLOB TL_WORKSHEET_SAMPLES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/worksheet/*.c)
foreach(src ${TL_WORKSHEET_SAMPLES})
  get_filename_component(name ${src} NAME_WE)
  add_executable(sample_cuda_worksheet_${name} ${src})
  target_link_libraries(sample_cuda_worksheet_${name} PRIVATE tensorlint)
  target_compile_definitions(sample_cuda_worksheet_${name} PRIVATE DEVICE=TL_CUDA)
  target_compile_options(sample_cuda_worksheet_${name} PRIVATE -Wno-unused-variable
                         -Wno-unused-but-set-variable)
endforeach()

if(TL_HAVE_CUDA)
  add_executable(gpu_bandwidth ${PROJECT_SOURCE_DIR}/bench/gpu_bandwidth.c)
  target_link_libraries(gpu_bandwidth PRIVATE tensorlint CUDA::cudart)
endif()
