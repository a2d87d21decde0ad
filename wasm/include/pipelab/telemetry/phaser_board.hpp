// PhaserBoard: what a phaser run's views draw that events cannot carry reliably — every task (its
// stage, parent, state, the thread running it, its phase counter, the sieve's prime) and every
// stream (its ends, phases signalled and waited, batching) — as fixed records in shared memory.
//
// Roles: the runtime appends records (add_task, add_stream: any task, under the runtime's
//   registration lock); a task's own thread updates its record and the streams it reads or
//   writes; the page (or a test) reads everything at any time.
// Invariant: records [0, count) are fully written: a record's words are stored before the count
//   that publishes it. Counts only grow during a run; reset() clears them between runs.
// Capacity rule: task and stream capacities are fixed at construction; add_* returns kNone when
//   full (the runtime never asks for more than it was built for: PhaserRuntime::kMaxTasks).
// Memory orders: every word is a 32-bit atomic (the page reads them with Atomics.load); fields are
//   stored relaxed, the counts with release and read with acquire. A record read while its task
//   runs may mix two moments (state of one, phase of the next): the views only draw it.
// Layout (contracts/telemetry.md, a contract with src/telemetry/phaserBoard.ts): a 64-byte header
//   (taskCount, streamCount, taskCapacity, streamCapacity, stalled, cyclicStreams), then
//   taskCapacity task records of 8 words, then streamCapacity stream records of 8 words.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "pipelab/cacheline.hpp"

namespace pipelab::telemetry {

// Task states on the board: what the task last did.
enum class BoardTaskState : std::uint32_t {
  kNew = 0,
  kRunning = 1,
  kWaitingInput = 2,  // parked: the phase it waits for is not complete
  kWaitingBound = 3,  // parked: its next signal would pass the bound
  kYielded = 4,       // gave its thread to another ready task (quantum spent, or pause)
  kDone = 5,
};

class PhaserBoard {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  static constexpr std::size_t kHeaderWords = 16;
  static constexpr std::size_t kRecordWords = 8;
  // Task record words.
  enum TaskWord : std::uint32_t {
    kStage,
    kState,
    kThread,
    kParent,
    kLabel,
    kPhase,
    kInput,
    kOutput
  };
  // Stream record words.
  enum StreamWord : std::uint32_t {
    kSpecIndex,
    kFromTask,
    kToTask,
    kSignalled,
    kWaited,
    kFlags,
    kBatch,
    kUnused
  };
  static constexpr std::uint32_t kBatchedFlag = 1;  // kFlags: elements travel in batches
  static constexpr std::uint32_t kCyclicFlag = 2;   // kFlags: on a cycle, so batching is off

  PhaserBoard(std::uint32_t task_capacity, std::uint32_t stream_capacity)
      : words_(kHeaderWords + (std::size_t(task_capacity) + stream_capacity) * kRecordWords),
        bytes_(words_ * sizeof(Word)),
        memory_(bytes_),
        base_(reinterpret_cast<Word*>(memory_.data())),
        task_capacity_(task_capacity),
        stream_capacity_(stream_capacity) {
    for (std::size_t i = 0; i < words_; ++i) new (&base_[i]) Word(0);
    header(kTaskCapacity).store(task_capacity, std::memory_order_relaxed);
    header(kStreamCapacity).store(stream_capacity, std::memory_order_relaxed);
  }
  PhaserBoard(const PhaserBoard&) = delete;
  PhaserBoard& operator=(const PhaserBoard&) = delete;

  // Between runs only.
  void reset() noexcept {
    for (std::size_t i = 0; i < words_; ++i) base_[i].store(0, std::memory_order_relaxed);
    header(kTaskCapacity).store(task_capacity_, std::memory_order_relaxed);
    header(kStreamCapacity).store(stream_capacity_, std::memory_order_relaxed);
  }

  // Appends a task; returns its id (= record index) or kNone when full. Callers serialise adds.
  std::uint32_t add_task(std::uint32_t stage, std::uint32_t parent, std::uint32_t label,
                         std::uint32_t input, std::uint32_t output) noexcept {
    const std::uint32_t id = header(kTaskCount).load(std::memory_order_relaxed);
    if (id >= task_capacity_) return kNone;
    set_task(id, kStage, stage);
    set_task(id, kParent, parent == kNone ? 0 : parent + 1);
    set_task(id, kLabel, label);
    set_task(id, kInput, input == kNone ? 0 : input + 1);
    set_task(id, kOutput, output == kNone ? 0 : output + 1);
    set_task(id, kThread, kNone);
    header(kTaskCount).store(id + 1, std::memory_order_release);
    return id;
  }
  std::uint32_t add_stream(std::uint32_t spec_index, std::uint32_t from_task, std::uint32_t to_task,
                           std::uint32_t flags, std::uint32_t batch) noexcept {
    const std::uint32_t id = header(kStreamCount).load(std::memory_order_relaxed);
    if (id >= stream_capacity_) return kNone;
    set_stream(id, kSpecIndex, spec_index);
    set_stream(id, kFromTask, from_task == kNone ? 0 : from_task + 1);
    set_stream(id, kToTask, to_task == kNone ? 0 : to_task + 1);
    set_stream(id, kFlags, flags);
    set_stream(id, kBatch, batch);
    header(kStreamCount).store(id + 1, std::memory_order_release);
    return id;
  }

  void set_task(std::uint32_t id, TaskWord w, std::uint32_t v) noexcept {
    if (id < task_capacity_) task_word(id, w).store(v, std::memory_order_relaxed);
  }
  void set_stream(std::uint32_t id, StreamWord w, std::uint32_t v) noexcept {
    if (id < stream_capacity_) stream_word(id, w).store(v, std::memory_order_relaxed);
  }
  void set_state(std::uint32_t id, BoardTaskState s, std::uint32_t thread) noexcept {
    set_task(id, kThread, thread);
    set_task(id, kState, static_cast<std::uint32_t>(s));
  }
  void mark_stalled() noexcept { header(kStalled).store(1, std::memory_order_release); }
  void set_cyclic_streams(std::uint32_t n) noexcept {
    header(kCyclicStreams).store(n, std::memory_order_relaxed);
  }

  std::uint32_t tasks() const noexcept {
    return header(kTaskCount).load(std::memory_order_acquire);
  }
  std::uint32_t streams() const noexcept {
    return header(kStreamCount).load(std::memory_order_acquire);
  }
  std::uint32_t task(std::uint32_t id, TaskWord w) const noexcept {
    return task_word(id, w).load(std::memory_order_relaxed);
  }
  std::uint32_t stream(std::uint32_t id, StreamWord w) const noexcept {
    return stream_word(id, w).load(std::memory_order_relaxed);
  }
  bool stalled() const noexcept { return header(kStalled).load(std::memory_order_acquire) != 0; }
  std::uint32_t cyclic_streams() const noexcept {
    return header(kCyclicStreams).load(std::memory_order_relaxed);
  }
  const void* data() const noexcept { return base_; }
  std::size_t size_bytes() const noexcept { return bytes_; }

 private:
  using Word = std::atomic<std::uint32_t>;
  static_assert(sizeof(Word) == 4 && Word::is_always_lock_free, "the page reads 32-bit words");
  enum HeaderWord : std::uint32_t {
    kTaskCount,
    kStreamCount,
    kTaskCapacity,
    kStreamCapacity,
    kStalled,
    kCyclicStreams
  };

  Word& header(HeaderWord w) const noexcept { return base_[w]; }
  Word& task_word(std::uint32_t id, TaskWord w) const noexcept {
    return base_[kHeaderWords + std::size_t(id) * kRecordWords + w];
  }
  Word& stream_word(std::uint32_t id, StreamWord w) const noexcept {
    return base_[kHeaderWords + (std::size_t(task_capacity_) + id) * kRecordWords + w];
  }

  std::size_t words_;
  std::size_t bytes_;
  PairAlignedBytes memory_;
  Word* base_;
  std::uint32_t task_capacity_;
  std::uint32_t stream_capacity_;
};

}  // namespace pipelab::telemetry
