// UnpaddedBatchQueue: BatchQueue with producer state, consumer state and `status` packed together.
//
// Same roles, invariant, capacity rule and memory orders as BatchQueue (batch_queue.hpp). The only
// change is layout: the producer's state (the semi-buffer pointers, its fill index), the
// consumer's (pointers, read index, end) and the shared flag with its count are packed together
// (natively 40 + 40 bytes over the object's first two cache lines: the producer's fill index
// shares line 0 with the pointers the consumer reads on every pop, the consumer's indices share
// line 1 with `status`; in wasm32, 20-byte states, all 52 bytes in line 0) — so every push and
// every pop (each writes its own index) steals a line the other core is using although no data is
// shared: false sharing. BatchQueue keeps them 128 bytes apart (beyond the
// adjacent-line prefetcher's pair); the queues benchmark and the lesson's race report the ratio of
// the two, and BasicBatchQueue::layout() gives the offsets the lesson draws. It exists only to be
// measured.
#pragma once

#include <cstddef>

#include "pipelab/queues/batch_queue.hpp"

namespace pipelab::queues {

template <typename T>
using UnpaddedBatchQueue = BasicBatchQueue<T, alignof(std::size_t)>;

}  // namespace pipelab::queues
