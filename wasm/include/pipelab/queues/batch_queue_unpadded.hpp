// UnpaddedBatchQueue: BatchQueue with producer state, consumer state and `status` packed together.
//
// Same roles, invariant, capacity rule and memory orders as BatchQueue (batch_queue.hpp). The only
// change is layout: the producer's private fill index, the consumer's private read index and the
// shared flag sit on one cache line, so every push and every pop (which write their own index)
// steals the line from the other core although no data is shared: false sharing. BatchQueue keeps
// them 128 bytes apart (beyond the adjacent-line prefetcher's pair); the queues benchmark reports
// the ratio of the two. It exists only to be measured.
#pragma once

#include <cstddef>

#include "pipelab/queues/batch_queue.hpp"

namespace pipelab::queues {

template <typename T>
using UnpaddedBatchQueue = BasicBatchQueue<T, alignof(std::size_t)>;

}  // namespace pipelab::queues
