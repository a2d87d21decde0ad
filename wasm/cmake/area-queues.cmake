# Queues area: the queue headers' tests (native, TSan, wasm under Node) and the queue benchmark.
pipelab_add_test_suite(queue_tests
  ${PIPELAB_ROOT}/tests/native/queues/batch_queue_test.cpp
  ${PIPELAB_ROOT}/tests/native/queues/spsc_queues_test.cpp
  ${PIPELAB_ROOT}/tests/native/queues/vyukov_mpmc_queue_test.cpp)

# The single-producer single-consumer role guard (queues/role_guard.hpp) is debug-only, so its
# suite is a debug build whatever CMAKE_BUILD_TYPE says: -UNDEBUG comes after the build type's
# -DNDEBUG on the command line. Death tests check a second producer or consumer thread aborts.
pipelab_add_test_suite(queue_role_guard_tests ${PIPELAB_ROOT}/tests/native/queues/role_guard_test.cpp)
target_compile_options(queue_role_guard_tests PRIVATE -UNDEBUG)

# Queue benchmark (bench/queues): optimised builds only; TSan timings would mean nothing.
if(NOT PIPELAB_TSAN)
  set(PIPELAB_BENCH_QUEUES_SRC ${PIPELAB_ROOT}/bench/queues/bench_queues.cpp)
  if(EMSCRIPTEN)
    # em++ must not see /usr/include (glibc headers): a folder of links to only the peers' headers.
    set(peer_dir ${CMAKE_BINARY_DIR}/bench-peers)
    file(MAKE_DIRECTORY ${peer_dir})
    foreach(peer readerwriterqueue boost)
      if(NOT EXISTS ${peer_dir}/${peer})
        file(CREATE_LINK /usr/include/${peer} ${peer_dir}/${peer} SYMBOLIC)
      endif()
    endforeach()
    set(bench_flags -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1 -sPTHREAD_POOL_SIZE=8
      -sINITIAL_MEMORY=256MB -sALLOW_MEMORY_GROWTH=0 -sDEFAULT_PTHREAD_STACK_SIZE=1MB)
    # Node: a CommonJS program. Web: a plain script the bench page loads (main() runs in a worker).
    add_executable(bench_queues ${PIPELAB_BENCH_QUEUES_SRC})
    target_link_options(bench_queues PRIVATE ${bench_flags} -sENVIRONMENT=node
      --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
    add_executable(bench_queues_web ${PIPELAB_BENCH_QUEUES_SRC})
    target_link_options(bench_queues_web PRIVATE ${bench_flags} -sENVIRONMENT=web,worker)
    set(bench_targets bench_queues bench_queues_web)
    set_target_properties(${bench_targets} PROPERTIES SUFFIX ".js" EXCLUDE_FROM_ALL ON)
  else()
    add_executable(bench_queues ${PIPELAB_BENCH_QUEUES_SRC})
    set_target_properties(bench_queues PROPERTIES EXCLUDE_FROM_ALL ON)
    set(bench_targets bench_queues)
  endif()
  foreach(target ${bench_targets})
    target_link_libraries(${target} PRIVATE pipelab_core Threads::Threads)
    target_compile_options(${target} PRIVATE -O3 -DNDEBUG)
    if(EMSCRIPTEN)
      target_include_directories(${target} SYSTEM PRIVATE ${peer_dir})
    endif()
  endforeach()
endif()
