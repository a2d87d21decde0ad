# pipelab_add_test_suite(<name> <sources...>): one GoogleTest executable built for every target.
#   native / TSan: registered per test case with CTest (gtest_discover_tests).
#   emscripten:    the same sources as a Node program on real pthreads, registered as one CTest
#                  entry; the test driver counts its cases from GoogleTest's own summary line.
# Areas call this from their wasm/cmake/area-*.cmake file; sources live under tests/native/.
find_package(Threads REQUIRED)

# The programs `npm test` also builds and runs in wasm: those whose code takes another path
# there. Every other program tests code that is the same C++ on every target, already run natively
# and under TSan, and the runtimes it drives run in wasm through the shipped module
# (tests/wasm/engines.test.ts and its neighbours: every runtime, pause, cancel, the race, the
# phasers, counting). Those 15 programs were about 120 s of the wasm suite's 174 s on a quiet
# 2-core machine (.ninja_log: two thirds of its 80 s build; ctest: 62 s of its 64).
#   sync_tests            futex wait/wake (emscripten_futex_wait, with and without a limit: also
#                         what queues/thread_sleep.hpp sleeps on) and the spinning and blocking
#                         barriers over them
#   lockfree_stress_tests the Chase-Lev deque's owner/thief races and the SPSC queues under
#                         randomized yields: the lock-free code's memory orders as wasm's
#                         atomics and em++'s code generation give them
# `npm test -- --full` builds and runs every program in wasm (after a change to the C++ core).
set(PIPELAB_WASM_QUICK_SUITES sync_tests lockfree_stress_tests)
if(EMSCRIPTEN)
  add_custom_target(pipelab_wasm_quick_tests)
endif()

if(EMSCRIPTEN)
  # Debian ships GoogleTest as source: build it with em++ and pthreads like everything else.
  set(gtest_disable_pthreads OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(PIPELAB_GTEST_SRC "/usr/src/googletest" CACHE PATH "GoogleTest source tree")
  add_compile_options(-pthread)
  add_link_options(-pthread)
  add_subdirectory(${PIPELAB_GTEST_SRC} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
  set(PIPELAB_GTEST_MAIN gtest_main)
else()
  find_package(GTest REQUIRED)
  include(GoogleTest)
  set(PIPELAB_GTEST_MAIN GTest::gtest_main)
endif()

function(pipelab_add_test_suite name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE pipelab_core ${PIPELAB_GTEST_MAIN} Threads::Threads)
  # Shared test helpers: #include "support/<name>.hpp" (tests/native/support).
  target_include_directories(${name} PRIVATE ${PIPELAB_ROOT}/tests/native)
  # Build time is most of `npm test`'s C++ suites, and nearly all of it is the optimiser working
  # through the header-only core, which every test source instantiates whole (the runtimes, the
  # spec parser). So a test program compiles its sources as one (UNITY_BUILD: the core once per
  # program, not once per source) and at -O1 (after the build type's -O3, so it wins). Native
  # build, 2 cores, 2026-11-28: 168 s wall (329 s CPU) before, 78 s (145 s CPU) after; the tests
  # themselves ran no longer (ctest -j2: 35-38 s both ways). The app's modules and the bench
  # programs keep -O3: the e2e suite runs the shipped module, the benches time it. Sources of one
  # program share a translation unit, so test helpers in their anonymous namespaces need
  # distinct names.
  set_target_properties(${name} PROPERTIES UNITY_BUILD ON)
  target_compile_options(${name} PRIVATE -O1)
  if(EMSCRIPTEN)
    # main() runs in a pthread so tests may block and join; the pool is large enough that
    # no test waits for a Worker to be created (see reference: pool-size deadlock).
    # -fexceptions: tests check that bad configuration throws (Emscripten disables catching by default).
    # -O1 at link (the last -O wins over the build type's -O3, so the objects keep -O3): binaryen's
    # -O3 pass over each linked test program cost more than compiling every object (298 s of CPU
    # against 227 s, .ninja_log, 2026-11-24). At -O1 the 17 programs link in 7 s instead of 99 s
    # wall, and the suite's tests run no longer (ctest, alternating: 87 and 83 s with -O3 links,
    # 59 and 73 s with -O1). The app's modules and the bench programs keep their own -O levels.
    target_compile_options(${name} PRIVATE -fexceptions)
    target_link_options(${name} PRIVATE -fexceptions -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1 -sENVIRONMENT=node
      -sPTHREAD_POOL_SIZE=20 -sINITIAL_MEMORY=512MB -sALLOW_MEMORY_GROWTH=0 -sTOTAL_STACK=1MB
      -sDEFAULT_PTHREAD_STACK_SIZE=1MB
      --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js -O1)
    set_target_properties(${name} PROPERTIES SUFFIX ".js"
      LINK_DEPENDS ${PIPELAB_ROOT}/wasm/src/node_pre.js)
    add_test(NAME wasm.${name} COMMAND node ${CMAKE_CURRENT_BINARY_DIR}/${name}.js)
    set_tests_properties(wasm.${name} PROPERTIES TIMEOUT 600)
    if(name IN_LIST PIPELAB_WASM_QUICK_SUITES)
      set_tests_properties(wasm.${name} PROPERTIES LABELS wasm-quick)
      add_dependencies(pipelab_wasm_quick_tests ${name})
    endif()
  else()
    # No per-test TIMEOUT here: inside gtest_discover_tests, "PROPERTIES TIMEOUT n" is taken as
    # the function's own (discovery) TIMEOUT keyword. The test driver passes ctest --timeout.
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

if(EMSCRIPTEN)
  # The repository is "type": "module"; Emscripten's Node glue is CommonJS.
  file(WRITE ${CMAKE_BINARY_DIR}/package.json "{\"type\": \"commonjs\"}\n")
endif()

# pipelab_add_bench_program(<name> <source> <initial memory>): a benchmark CLI (bench/<area>/),
# optimised, outside `all` (its driver builds it). Natively a plain program; under Emscripten a
# Node program on pthreads (main() in a pthread so it may join, a pool of cores + 4 workers so no
# thread start waits for one). Not under TSan: its timings would mean nothing.
function(pipelab_add_bench_program name source memory)
  if(PIPELAB_TSAN)
    return()
  endif()
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE pipelab_core Threads::Threads)
  target_compile_options(${name} PRIVATE -O2 -DNDEBUG)
  set_target_properties(${name} PROPERTIES EXCLUDE_FROM_ALL ON)
  if(EMSCRIPTEN)
    target_link_options(${name} PRIVATE -O2 -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1
      -sENVIRONMENT=node "-sPTHREAD_POOL_SIZE=require('os').cpus().length+4"
      -sINITIAL_MEMORY=${memory} -sALLOW_MEMORY_GROWTH=0 -sDEFAULT_PTHREAD_STACK_SIZE=256KB
      --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
    set_target_properties(${name} PROPERTIES SUFFIX ".js")
  endif()
endfunction()
