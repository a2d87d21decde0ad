// The glossary: every term a lesson uses before a student can be expected to know it, with a
// definition in plain words. Lesson prose marks a term `[[text|id]]` (or `[[id]]`), which the
// build renders as a focusable <dfn data-term="id">; the page's glossary tip (app/glossary) shows
// the definition on hover and on keyboard focus, on every page. An unknown id fails the build,
// naming the known ones. `firstUse` finds the term in a lesson's markdown: the first place it
// matches must be marked, so each lesson defines a term where a reader first meets it
// (tests/unit/lessons/glossary.test.ts).

export interface GlossaryEntry {
  /** The term as a heading would write it. */
  name: string;
  /** One to three plain sentences. */
  definition: string;
  /** Where the term occurs in lesson markdown (checked: its first match in a lesson is marked). */
  firstUse: RegExp;
}

export const GLOSSARY = {
  twin: {
    name: 'the twin',
    definition:
      'A simulation of the same runtime, event by event, seeded so that a run always comes out the same. It gives every thread a core of its own unless told otherwise, so it can run at a paper’s scale (66 threads, 59,695 images) and check every sentence marked ✓ when the site is built.',
    firstUse: /\btwin\b/i,
  },
  bubble: {
    name: 'bubble',
    definition:
      'A stretch of time in which a stage’s thread has nothing to do, because the stage before it has not handed over an item yet or the queue after it is full.',
    firstUse: /\bbubbles?\b/i,
  },
  throughput: {
    name: 'throughput',
    definition:
      'Items finished per unit of time (here per second). The time for a run is the number of items over the throughput (the paper’s Eq. 2).',
    firstUse: /\bthroughput\b/i,
  },
  'closed-model': {
    name: 'closed model',
    definition:
      'A queueing model in which a fixed number of items (tokens) go round and round: a new item can enter only when another leaves. It fits a pipeline whose queues are bounded, where a full queue stops the stage before it.',
    firstUse: /\bclosed (queue|system|model)s?\b/i,
  },
  'open-model': {
    name: 'open model',
    definition:
      'A queueing model in which items arrive from outside at their own rate, however many are already inside. It fits a pipeline whose queues never fill, so no stage ever waits for room.',
    firstUse: /\bopen\*{0,2} (queue|system|model|pipeline)s?\b/i,
  },
  'case-1': {
    name: 'Case 1',
    definition:
      'Navarro et al.’s model of a pipeline with bounded queues and a fixed pool of threads per stage: every stage is a closed queue with N tokens (the queue size) and c_i threads, and the pipeline runs at its slowest stage’s rate.',
    firstUse: /\bCase 1\b/,
  },
  'case-2': {
    name: 'Case 2',
    definition:
      'Navarro et al.’s model of a pipeline with unbounded queues: every stage is an open queue with c_i threads, fed at the rate of the stages before it; the pipeline runs at its slowest stage’s rate.',
    firstUse: /\bCase 2\b/,
  },
  'case-3': {
    name: 'Case 3',
    definition:
      'Navarro et al.’s model of a work-stealing (TBB) pipeline: every thread is a closed queue of its own tokens, helped by the idle threads that steal from it (an Erlang-B system), the total capped by the serial input and output stages.',
    firstUse: /\bCase 3\b/,
  },
  't-arr': {
    name: 'T_arr (think time)',
    definition:
      'In Case 1, how long a token stays away before it brings the stage its next item. The paper sets it to the longest stage time; a shorter T_arr means items arrive more often.',
    firstUse: /T_\{?arr\}?/,
  },
  't-ser': {
    name: 'T_ser (service time)',
    definition:
      'The time one thread of a stage needs for one item, measured in the sequential program. A stage with c threads can finish at most c / T_ser items per unit of time.',
    firstUse: /T_\{?ser/,
  },
  npth: {
    name: 'npTh',
    definition:
      'The number of threads in the parallel (middle) stages, all together; the serial input and output stages have one thread each on top. With 4 parallel stages, npTh = 16 means 4 threads per stage.',
    firstUse: /npTh/,
  },
  'erlang-b': {
    name: 'Erlang-B',
    definition:
      'Erlang’s loss formula: how many of n servers are busy when work arrives at random and work that finds them all busy is turned away rather than queued. Case 3 uses it for how much of one thread’s work the idle threads can take on.',
    firstUse: /Erlang-B/,
  },
  token: {
    name: 'token',
    definition:
      'A permit for one item to be inside the pipeline. TBB’s ntokens caps the items in flight; a new item enters only when a token is free.',
    firstUse: /\*\*token\*\*|\btokens\b/i,
  },
  'work-stealing': {
    name: 'work stealing',
    definition:
      'A thread that runs out of work takes a task from another thread’s queue (deque) instead of waiting, so no thread is tied to one stage.',
    firstUse: /\bwork[- ]stealing\b/i,
  },
  oversubscription: {
    name: 'oversubscription',
    definition:
      'Running more threads than there are cores and leaving it to the operating system to switch a core between them, so a core whose thread waits can run another.',
    firstUse: /\boversubscri/i,
  },
  'lambda-max': {
    name: 'λ_max (the serial bound)',
    definition:
      'The most items per unit of time the serial input or output stage can pass: one over its time per item (the paper’s Eq. 9). No number of parallel threads gets a pipeline past it.',
    firstUse: /\\lambda_\{max\}/,
  },
  'c-optimal': {
    name: 'c_optimal',
    definition:
      'The fewest parallel threads that bring the model’s throughput to the serial bound λ_max (within 2% here): more threads buy nothing.',
    firstUse: /c_\{optimal\}|c_optimal/,
  },
  'n-optimal': {
    name: 'N_optimal',
    definition:
      'The shortest queue (or the fewest tokens per thread) that brings the model’s throughput to its upper bound λ_eu (within 2% here): longer queues only cost memory.',
    firstUse: /N_\{optimal\}|N_optimal/,
  },
  'cache-line': {
    name: 'cache line',
    definition:
      'The unit in which cores move memory between their caches: 64 bytes on the machines here. A write to any byte of a line takes the whole line away from the other cores’ caches.',
    firstUse: /\bcache[- ]lines?\b/i,
  },
  'false-sharing': {
    name: 'false sharing',
    definition:
      'Two threads writing different variables that happen to lie on the same cache line: the line travels between their cores at every write although no data is shared.',
    firstUse: /\bfalse sharing\b/i,
  },
  'adjacent-line-prefetcher': {
    name: 'adjacent-line prefetcher',
    definition:
      'A unit of Intel processors that, when a core fetches a 64-byte cache line, also fetches the other half of its 128-byte pair. So two variables in one pair can still slow each other down, and BatchQueue keeps its shared variables 128 bytes apart.',
    firstUse: /adjacent-line prefetcher/i,
  },
  'semi-buffer': {
    name: 'semi-buffer',
    definition:
      'One of BatchQueue’s two halves: the producer fills one while the consumer empties the other, and they swap when the producer’s half is full.',
    firstUse: /\bsemi-buffers?\b/i,
  },
  phaser: {
    name: 'phaser',
    definition:
      'A barrier that knows which tasks signal and which wait, and that tasks can join and leave while it runs. With a bound it becomes a stream: signallers may run at most that many phases ahead of the waiters.',
    firstUse: /\bphasers?\b/i,
  },
  'capability-rule': {
    name: 'capability rule',
    definition:
      'A task may register a task it spawns on a phaser only in a mode it holds itself (signal, wait or both): a child can never signal or wait where its parent could not. So a new task adds no new cycle, and the runtime only needs to trace the parent.',
    firstUse: /capability rule/i,
  },
  futex: {
    name: 'futex',
    definition:
      'A “fast user-space mutex”: a word in memory that a thread can ask the operating system to sleep on until another thread wakes it. A thread waiting on a futex gives its core away.',
    firstUse: /\bfutex/i,
  },
  'thread-packing': {
    name: 'thread packing (TP)',
    definition:
      'Keeping all of a program’s threads and squeezing them onto fewer cores than threads, so some cores run two or more threads by turns.',
    firstUse: /thread packing/i,
  },
  'thread-reduction': {
    name: 'thread reduction (TR)',
    definition:
      'Starting only as many threads as there are cores, each thread on a core of its own, with the same total work split among fewer threads.',
    firstUse: /thread reduction/i,
  },
} satisfies Record<string, GlossaryEntry>;

export type TermId = keyof typeof GLOSSARY;
export const TERM_IDS = Object.keys(GLOSSARY) as TermId[];

export const isTermId = (id: string): id is TermId => Object.hasOwn(GLOSSARY, id);

/** `[[text|id]]` or `[[id]]` in lesson markdown (math already masked, so text may hold a formula). */
export const TERM_MARK = /\[\[([^\]|]+?)(?:\|([a-z0-9-]+))?\]\]/g;

/** The markup of a marked term: a focusable <dfn> the glossary tip finds by its data-term. The
 * text stays markdown (it may sit inside a claim's sentence: raw inline HTML keeps both). */
export function termMark(id: TermId, text: string): string {
  return `<dfn class="term" data-term="${id}" tabindex="0">${text}</dfn>`;
}
