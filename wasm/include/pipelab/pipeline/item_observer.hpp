// ItemObserver: hears each item enter and leave a runtime, from outside it, so tests can count
// the items in flight without trusting the runtime's own counter (oneTBB's conformance tests
// check "active tokens <= the limit passed" the same way, from the filters).
// Calls come from the worker that acts, at the moment it acts, so implementations must be
// thread-safe. entered(item) comes AFTER the runtime has taken the item's token, left(item)
// BEFORE it gives the token back: an observer's count of entered-and-not-left items is therefore
// never above the tokens the runtime really holds, and a runtime that admits too many shows.
// Attach between runs only; nullptr detaches. The observer must outlive the runs it watches.
#pragma once

#include <cstdint>

namespace pipelab::pipeline {

class ItemObserver {
 public:
  virtual ~ItemObserver() = default;
  // `item` (its sequence number) holds a token from now on.
  virtual void entered(std::uint64_t item) noexcept = 0;
  // `item` has left the last stage and is about to give its token back.
  virtual void left(std::uint64_t item) noexcept = 0;
};

}  // namespace pipelab::pipeline
