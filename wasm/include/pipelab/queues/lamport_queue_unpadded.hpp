// UnpaddedLamportQueue: the Lamport ring with head_ and tail_ packed together, on purpose.
//
// Same roles, invariant, capacity rule and memory orders as LamportQueue (lamport_queue.hpp). The
// only change is layout: both indices (and the read-only slot count and pointer) share the
// object's first cache line (40 bytes in all: BasicLamportQueue::layout() gives the offsets), so
// each producer store of tail_ also invalidates the consumer's copy of head_ and the reverse (false
// sharing). The queues benchmark compares it with LamportQueue; it exists only to be measured.
#pragma once

#include <cstddef>

#include "pipelab/queues/lamport_queue.hpp"

namespace pipelab::queues {

template <typename T>
using UnpaddedLamportQueue = BasicLamportQueue<T, alignof(std::size_t)>;

}  // namespace pipelab::queues
