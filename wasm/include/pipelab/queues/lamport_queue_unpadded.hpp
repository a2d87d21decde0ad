// UnpaddedLamportQueue: the Lamport ring with head_ and tail_ packed together, on purpose.
//
// Same roles, invariant, capacity rule and memory orders as LamportQueue (lamport_queue.hpp). The
// only change is layout: both indices (and the read-only slot count and pointer) share the
// object's first cache line (40 bytes natively, 20 in wasm32: BasicLamportQueue::layout() gives
// the offsets). This is not false sharing: each side reads the other's index on every call, so the
// indices are truly shared and cross between the cores on nearly every item in either layout;
// packed, one line carries both, padded, two lines travel. With locked stores (every wasm atomic
// store, seq_cst natively) the packed ring measured faster (wasm under Node: padded 0.79x packed,
// median of 40 paired runs, 2026-11-28); with native release stores it depends on the CPU. The
// queues benchmark and the lesson's false-sharing race compare it with LamportQueue; it exists
// only to be measured.
#pragma once

#include <cstddef>

#include "pipelab/queues/lamport_queue.hpp"

namespace pipelab::queues {

template <typename T>
using UnpaddedLamportQueue = BasicLamportQueue<T, alignof(std::size_t)>;

}  // namespace pipelab::queues
