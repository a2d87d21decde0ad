# Every public header compiles on its own: one generated translation unit per header under
# wasm/include that includes only that header (native build only; it is a property of the source,
# not of the target). Test programs compile their sources as one unity translation unit
# (testing.cmake), so a header that leans on an include made by whatever came before it in that
# unit would otherwise go unnoticed until someone includes it first. A header that is not
# self-contained fails the native build, and so `npm test`.
if(EMSCRIPTEN OR PIPELAB_TSAN)
  return()
endif()

file(GLOB_RECURSE PIPELAB_PUBLIC_HEADERS CONFIGURE_DEPENDS
  RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/include/*.hpp)
list(SORT PIPELAB_PUBLIC_HEADERS)
set(header_check_sources)
foreach(header ${PIPELAB_PUBLIC_HEADERS})
  # The header's own path under header-check/: one source per header, no two alike.
  set(source ${CMAKE_BINARY_DIR}/header-check/${header}.cpp)
  # Written only when its text changes (spec-limits.cmake), so reconfiguring rebuilds nothing.
  pipelab_write_if_changed(${source} "#include \"${header}\"  // and nothing before it\n")
  list(APPEND header_check_sources ${source})
endforeach()

# Objects nobody links: building them is the check. -O0 because nothing is instantiated to
# optimise; each compile is the header's parse.
add_library(pipelab_header_check OBJECT ${header_check_sources})
target_link_libraries(pipelab_header_check PRIVATE pipelab_core)
target_compile_options(pipelab_header_check PRIVATE -O0)
