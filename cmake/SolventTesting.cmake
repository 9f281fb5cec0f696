# solvent_add_test(NAME
#   SOURCES src...            build an executable NAME-tests from these sources, with the
#                             support library's doctest main (unless NO_MAIN or CUDA_PROBE)
#   | COMMAND cmd args...     or run a command
#   [PLUGINS plugin...]       plugins the test loads: built first, found through the plugin path
#   [LIBRARIES lib...]        linked into the executable (Solvent::testkit and the test-support
#                             library always are)
#   [DEFINITIONS def...]      compile definitions of the executable
#   [CUDA_PROBE plugin]       the test needs a GPU: its main asks `plugin` (a linear solver or
#                             a preconditioner) for the device and exits 77 (reported as
#                             skipped) without one; labels the test cuda
#   [LABELS label...]         CTest labels: cuda, mpi, slow (ctest -L cuda runs the GPU tests)
#   [ENVIRONMENT VAR=value...] [TIMEOUT s] [PASS_REGULAR_EXPRESSION re] [REQUIRES target...])
#
# Every test gets the build tree's plugin folder as SOLVENT_PLUGIN_PATH, exit code 77 as
# "skipped", a folder of its own for OpenMPI's shared memory, OpenMP threads that wait passively (tests run side by side on few cores, and
# spinning threads of one test starve another's), and in the sanitizer build the sanitizers'
# options (SOLVENT_SANITIZER_ENV, CMakeLists.txt; a test's ENVIRONMENT may override them). A test whose REQUIRES or PLUGINS targets do not exist in
# this build (a CUDA plugin without nvcc) is not registered.
# A program that is not instrumented (Debian's python3) must load ASan's runtime first. A
# test that preloads a fault library of its own (LD_PRELOAD, the full disk) puts that library
# before ASan's runtime, which ASan refuses unless told the order is meant
# (SOLVENT_TEST_PRELOAD_ENV, the test's ENVIRONMENT).
set(SOLVENT_TEST_PRELOAD_ENV "")
if(SOLVENT_SANITIZE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE SOLVENT_TEST_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(SOLVENT_TEST_PRELOAD_ENV "ASAN_OPTIONS=${SOLVENT_SANITIZER_ASAN_OPTIONS}:verify_asan_link_order=0")
endif()

function(solvent_add_test name)
  cmake_parse_arguments(T "NO_MAIN" "CUDA_PROBE;TIMEOUT;PASS_REGULAR_EXPRESSION"
    "SOURCES;COMMAND;PLUGINS;LIBRARIES;DEFINITIONS;LABELS;ENVIRONMENT;REQUIRES" ${ARGN})
  foreach(t ${T_PLUGINS} ${T_REQUIRES} ${T_CUDA_PROBE})
    if(NOT TARGET ${t})
      return()
    endif()
  endforeach()
  set(_labels ${T_LABELS})
  if(T_CUDA_PROBE)
    list(APPEND _labels cuda)
  endif()
  if(T_SOURCES)
    set(_exe ${name}-tests)
    set(_sources ${T_SOURCES})
    if(T_CUDA_PROBE)
      list(APPEND _sources ${SOLVENT_TEST_SUPPORT_DIR}/cuda_test_main.cpp)
    endif()
    add_executable(${_exe} ${_sources})
    target_link_libraries(${_exe} PRIVATE solvent-test-support ${T_LIBRARIES})
    if(NOT T_NO_MAIN AND NOT T_CUDA_PROBE)
      target_link_libraries(${_exe} PRIVATE solvent-test-main)
    endif()
    if(T_CUDA_PROBE)
      target_compile_definitions(${_exe} PRIVATE SOLVENT_TEST_DEVICE_PROBE="${T_CUDA_PROBE}")
    endif()
    if(T_DEFINITIONS)
      target_compile_definitions(${_exe} PRIVATE ${T_DEFINITIONS})
    endif()
    if(T_PLUGINS OR T_CUDA_PROBE)
      add_dependencies(${_exe} ${T_PLUGINS} ${T_CUDA_PROBE})
    endif()
    add_test(NAME ${name} COMMAND ${_exe})
  else()
    add_test(NAME ${name} COMMAND ${T_COMMAND})
  endif()
  # OpenMPI's shared-memory segments in a folder of the test's own: a rank killed on purpose
  # (the interruption tests) leaves its segment behind, and in the shared /dev/shm a later
  # job of any test whose 16-bit job family hashes the same would open that stale file.
  set(_shm ${CMAKE_CURRENT_BINARY_DIR}/mpi-shm/${name})
  file(MAKE_DIRECTORY ${_shm})
  set(_env "SOLVENT_PLUGIN_PATH=${SOLVENT_PLUGIN_OUTPUT_DIRECTORY}" "OMP_WAIT_POLICY=PASSIVE"
    "OMPI_MCA_btl_vader_backing_directory=${_shm}" ${SOLVENT_SANITIZER_ENV} ${T_ENVIRONMENT})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${_env}" SKIP_RETURN_CODE 77)
  if(_labels)
    set_tests_properties(${name} PROPERTIES LABELS "${_labels}")
  endif()
  if(T_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
  if(T_PASS_REGULAR_EXPRESSION)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${T_PASS_REGULAR_EXPRESSION}")
  endif()
endfunction()
