// The barrier runtime's telemetry invariants (contracts/telemetry.md), checked the same way for
// the twin (tests/unit/sim) and the C++ runtime in wasm (tests/wasm/engines.test.ts): every thread
// arrives at and passes every interval's barrier exactly once, in order, and none passes before
// the last thread arrived; computing stretches pair up and start only after the previous pass;
// every event names its core (packed: t mod C'; the twin's os: a simulated core; real threads
// under the os: NO_CORE, the OS chose unseen).
import type { ExperimentSpec } from '../../src/spec/experimentSpec';
import { NO_CORE, type EventInput } from '../../src/telemetry';

/** Every broken invariant, as words (one assertion per run keeps tests fast). */
export function barrierTelemetryProblems(
  spec: ExperimentSpec,
  events: EventInput[],
  source: 'simulated' | 'measured',
): string[] {
  const problems: string[] = [];
  const packed = spec.schedule === 'packed';
  const cores = packed ? Math.min(spec.cores!, spec.threads) : (spec.cores ?? spec.threads);
  const coreOk = (t: number, arg: number) =>
    packed ? arg === t % cores : source === 'measured' ? arg === NO_CORE : arg >= 0 && arg < cores;
  const lastArrive = new Array<number>(spec.items).fill(-1);
  const firstPass = new Array<number>(spec.items).fill(Infinity);
  const byThread = Array.from({ length: spec.threads }, (): EventInput[] => []);
  for (const e of events) {
    if (e.worker < spec.threads) byThread[e.worker].push(e);
    else problems.push(`an event of thread ${e.worker}, beyond ${spec.threads} threads`);
  }
  byThread.forEach((mine, t) => {
    let arrived = 0;
    let passed = 0;
    let computing = false;
    let passedAt = 0;
    const bad = (what: string, e: EventInput) =>
      problems.push(`thread ${t} at ${e.timeUs} µs, ${e.kind} of interval ${e.item}: ${what}`);
    for (const e of mine) {
      if (e.stage !== 0 || !coreOk(t, e.arg)) bad(`stage ${e.stage}, core ${e.arg}`, e);
      if (e.kind === 'start') {
        if (computing || e.item !== passed || e.timeUs < passedAt) bad('starts out of turn', e);
        computing = true;
      } else if (e.kind === 'end') {
        if (!computing) bad('ends without a start', e);
        computing = false;
      } else if (e.kind === 'barrier-arrive') {
        if (e.item !== arrived || arrived !== passed || computing) bad('arrives out of turn', e);
        lastArrive[e.item] = Math.max(lastArrive[e.item], e.timeUs);
        arrived++;
      } else if (e.kind === 'barrier-pass') {
        if (e.item !== passed || arrived !== passed + 1) bad('passes out of turn', e);
        firstPass[e.item] = Math.min(firstPass[e.item], e.timeUs);
        passedAt = e.timeUs;
        passed++;
      } else bad('an unexpected kind', e);
    }
    if (arrived !== spec.items || passed !== spec.items)
      problems.push(`thread ${t}: ${arrived} arrivals and ${passed} passes of ${spec.items}`);
  });
  firstPass.forEach((at, k) => {
    if (at < lastArrive[k]) problems.push(`barrier ${k} passed before the last arrival`);
  });
  return problems;
}
