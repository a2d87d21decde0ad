# The app's threaded modules and the native tests of the counting-threads experiment.
if(EMSCRIPTEN)
  # The pool holds one Worker per core from the start; runs that ask for more threads grow it
  # (the engine worker returns to its event loop while they start) and the pool keeps them.
  # Both threaded modules link the same objects: only their link flags differ.
  pipelab_add_app_objects(pipelab-app-mt-objects -pthread)
  pipelab_add_app_module(pipelab-web-mt OUTPUT_DIR ${CMAKE_BINARY_DIR}/web
    OBJECTS pipelab-app-mt-objects
    FLAGS -pthread -sEXPORT_ES6=1 -sENVIRONMENT=web,worker -sDEFAULT_PTHREAD_STACK_SIZE=65536
    "-sPTHREAD_POOL_SIZE=Module['pthreadPoolSize']||navigator.hardwareConcurrency")
  pipelab_add_app_module(pipelab-node-mt OUTPUT_DIR ${CMAKE_BINARY_DIR}/node
    OBJECTS pipelab-app-mt-objects
    FLAGS -pthread -sENVIRONMENT=node -sDEFAULT_PTHREAD_STACK_SIZE=65536
    "-sPTHREAD_POOL_SIZE=Module['pthreadPoolSize']||require('os').cpus().length"
    --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
  set_target_properties(pipelab-node-mt PROPERTIES LINK_DEPENDS ${PIPELAB_ROOT}/wasm/src/node_pre.js)
  file(WRITE ${CMAKE_BINARY_DIR}/node/package.json "{\"type\": \"commonjs\"}\n")
endif()

pipelab_add_test_suite(counting_tests ${PIPELAB_ROOT}/tests/native/counting/counting_threads_test.cpp)
