# The app's wasm modules, all from wasm/src/bindings.cpp (see the recipe in shared/reference):
#   pipelab-web-mt    ES module, pthreads, loaded inside the engine Web Worker (cross-origin isolated pages)
#   pipelab-node-mt   CommonJS, pthreads, for the tests under Node (tests/wasm)
#   pipelab-web-st    ES module without threads: the fallback for pages that are not isolated
# Memory is fixed (no growth) so the SharedArrayBuffer never changes under the page that reads it.
set(PIPELAB_APP_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/bindings.cpp)
set(PIPELAB_APP_LINK_FLAGS -sMODULARIZE=1 -sEXPORT_NAME=createPipelab -sINITIAL_MEMORY=64MB
  -sALLOW_MEMORY_GROWTH=0 -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
  -sEXPORTED_FUNCTIONS=_malloc,_free -fexceptions)

# pipelab_add_app_objects(<name> [<compile options>...]): PIPELAB_APP_SOURCES compiled once, for
# the modules that link them (the two threaded modules differ only at link time, and compiling
# bindings.cpp at -O3 took 28 s of CPU each).
function(pipelab_add_app_objects name)
  add_library(${name} OBJECT ${PIPELAB_APP_SOURCES})
  target_link_libraries(${name} PRIVATE pipelab_core)
  target_compile_options(${name} PRIVATE -fexceptions ${ARGN})
endfunction()

# pipelab_add_app_module(<name> OBJECTS <app objects> OUTPUT_DIR <dir> FLAGS <link flags>...)
function(pipelab_add_app_module name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR;OBJECTS" "FLAGS" ${ARGN})
  add_executable(${name} $<TARGET_OBJECTS:${ARG_OBJECTS}>)
  target_link_libraries(${name} PRIVATE pipelab_core)
  target_link_options(${name} PRIVATE ${PIPELAB_APP_LINK_FLAGS} ${ARG_FLAGS})
  set_target_properties(${name} PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
endfunction()

if(PIPELAB_WASM_SINGLE_THREADED)
  pipelab_add_app_objects(pipelab-app-st-objects)
  pipelab_add_app_module(pipelab-web-st OBJECTS pipelab-app-st-objects
    OUTPUT_DIR ${CMAKE_BINARY_DIR}/web FLAGS -sEXPORT_ES6=1 -sENVIRONMENT=web,worker)
endif()
