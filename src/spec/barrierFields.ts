// The barrier runtime's own fields and rules (contracts/spec.md, "Runtime kinds"): which barrier
// the threads meet at, who schedules them (the OS, or explicit packing onto `cores` core threads),
// the time slice, and the checks that tie them to the rest of the spec. Read after `queue` (the
// kind's ownFields in runtimeKinds.ts), in the order below.
import { DEFAULTS, LIMITS } from './limits';
import { readEnum, readInteger, SpecError, type JsonObject } from './specFields';

export const BARRIER_KINDS = ['spin', 'blocking'] as const;
export const SCHEDULES = ['os', 'packed'] as const;
export type BarrierKind = (typeof BARRIER_KINDS)[number];
export type Schedule = (typeof SCHEDULES)[number];

/** A type, not an interface, so that it is a JsonObject (the kinds' ownFields() type). */
export type BarrierFields = {
  /** spin: a sense-reversing spinning barrier; blocking: spin briefly, then sleep on a futex. */
  barrier: BarrierKind;
  /** os: `threads` real threads that the OS places on the cores; packed: min(cores, threads) real
   * "core" threads, each running its share of the logical threads in slices of quantumUs. */
  schedule: Schedule;
  /** The time slice, µs: packed core threads switch logical threads this often; the twin's model
   * of the OS slices its cores at this length too. */
  quantumUs: number;
};

/**
 * The barrier runtime's fields (defaults filled) after its rules, read after `queue` (the default
 * queue it carries is checked by the parser): one stage, whose fixed service is the work of one
 * interval, all threads together (split evenly, so changing `threads` keeps the total), at least
 * LIMITS.barrierThreadUs[0] µs per thread; packed scheduling needs `cores` (its value is read
 * and range-checked after `seed`, as for every kind).
 */
/** What the rules read from the spec parsed so far (runtimeKinds.ts' KindInputs). */
interface ParsedSoFar {
  stages: ReadonlyArray<{ service: { kind: string; us?: number } }>;
  threads: number;
}

export function readBarrierFields(
  obj: JsonObject,
  _stageThreads: number[],
  parsed: ParsedSoFar,
): BarrierFields {
  const barrier =
    obj.barrier === undefined ? 'blocking' : readEnum(obj.barrier, 'barrier', BARRIER_KINDS);
  const schedule =
    obj.schedule === undefined ? 'os' : readEnum(obj.schedule, 'schedule', SCHEDULES);
  const quantumUs =
    obj.quantumUs === undefined
      ? DEFAULTS.quantumUs
      : readInteger(obj.quantumUs, 'quantumUs', ...LIMITS.quantumUs);
  if (parsed.stages.length !== 1)
    throw new SpecError(
      'stages',
      `${parsed.stages.length} stages is out of range (allowed 1 for the barrier runtime)`,
    );
  const service = parsed.stages[0].service;
  if (service.kind !== 'fixed')
    throw new SpecError(
      'stages[0].service.kind',
      `${JSON.stringify(service.kind)} is not one of fixed (for the barrier runtime)`,
    );
  const perThreadUs = service.us! / parsed.threads;
  const [minUs, maxUs] = LIMITS.barrierThreadUs;
  if (perThreadUs < minUs)
    throw new SpecError(
      'stages[0].service.us',
      `${service.us} over threads = ${parsed.threads} is ${perThreadUs} µs per thread, too short to measure (allowed ${minUs}..${maxUs} µs per thread)`,
    );
  if (schedule === 'packed' && obj.cores === undefined)
    throw new SpecError('cores', 'missing (required for the packed schedule)');
  return { barrier, schedule, quantumUs };
}

/** Thread reduction of a barrier spec: as many threads as cores (min(threads, cores)), the same
 * total work per interval — what thread packing is compared with. */
export function threadReduction<S extends { threads: number; tokens: number; cores?: number }>(
  spec: S,
): S {
  const threads = Math.min(spec.threads, spec.cores ?? spec.threads);
  return { ...spec, threads, tokens: threads };
}
