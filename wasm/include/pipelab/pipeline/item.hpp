// PipelineItem: what travels between stages — the item's input sequence number and the value the
// previous stage produced (kernels chain through it). 16 bytes, trivially copyable, so every
// queue moves it with plain copies.
#pragma once

#include <cstdint>
#include <type_traits>

namespace pipelab::pipeline {

struct PipelineItem {
  std::uint64_t seq = 0;
  std::uint64_t value = 0;
};
static_assert(sizeof(PipelineItem) == 16 && std::is_trivially_copyable_v<PipelineItem>);

}  // namespace pipelab::pipeline
