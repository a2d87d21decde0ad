# The ExperimentSpec limits, seen from C++ (contracts/spec.md). At configure time
# contracts/spec-limits.json becomes generated/pipelab/pipeline/spec_limits.hpp, in the build
# folder, never in the repository; editing the JSON file re-runs the configure step on the next
# build (CMAKE_CONFIGURE_DEPENDS), and a header whose text did not change keeps its time stamp, so
# nothing recompiles for nothing. C++ checks its specs against the same ranges as TypeScript, so it
# accepts every spec TypeScript accepts.
set(PIPELAB_GENERATED ${CMAKE_BINARY_DIR}/generated)
target_include_directories(pipelab_core INTERFACE ${PIPELAB_GENERATED})

set(spec_limits_json ${PIPELAB_ROOT}/contracts/spec-limits.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${spec_limits_json})

# Writes `content` to `path` only when it differs from what is there.
function(pipelab_write_if_changed path content)
  file(WRITE ${path}.tmp "${content}")
  configure_file(${path}.tmp ${path} COPYONLY)
  file(REMOVE ${path}.tmp)
endfunction()

# "stageThreads" -> "StageThreads"
function(pipelab_capitalize out word)
  string(SUBSTRING ${word} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${word} 1 -1 rest)
  set(${out} ${first}${rest} PARENT_SCOPE)
endfunction()

file(READ ${spec_limits_json} limits)
set(body "")
string(JSON count LENGTH "${limits}" ranges)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON key MEMBER "${limits}" ranges ${i})
  string(JSON lo GET "${limits}" ranges ${key} 0)
  string(JSON hi GET "${limits}" ranges ${key} 1)
  pipelab_capitalize(name ${key})
  string(APPEND body "inline constexpr Range k${name}{${lo}, ${hi}};\n")
endforeach()
# One constant per member of a section of numbers: "defaults" -> kDefault<Name>, and so on.
function(pipelab_number_constants out section prefix)
  set(text "")
  string(JSON count LENGTH "${limits}" ${section})
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${limits}" ${section} ${i})
    string(JSON value GET "${limits}" ${section} ${key})
    pipelab_capitalize(name ${key})
    string(APPEND text "inline constexpr double k${prefix}${name} = ${value};\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
pipelab_number_constants(defaults defaults Default)
pipelab_number_constants(budgets budgets Budget)
string(APPEND body "${defaults}${budgets}")
pipelab_write_if_changed(${PIPELAB_GENERATED}/pipelab/pipeline/spec_limits.hpp
"// Generated from contracts/spec-limits.json by wasm/cmake/spec-limits.cmake: edit the JSON.
// ExperimentSpec limits: inclusive ranges per field (contracts/spec.md), numeric defaults, budgets.
#pragma once

namespace pipelab::pipeline::limits {

struct Range {
  double lo;
  double hi;
};

${body}
}  // namespace pipelab::pipeline::limits
")

