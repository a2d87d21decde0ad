// The twin's events go through the same binary rings as the wasm engine's and decode unchanged.
import { describe, expect, it } from 'vitest';
import { RingWriter, readRing } from '../../../src/telemetry';
import { capture, exponential, spec } from './helpers';

describe('simulated telemetry in the contracts/telemetry.md rings', () => {
  it('round-trips through RingWriter and readRing per worker, seq numbering included', () => {
    const s = spec({
      runtime: 'work-stealing',
      stages: [
        { name: 'in', mode: 'serial-in-order', service: exponential(4) },
        { name: 'work', mode: 'parallel', service: exponential(30) },
      ],
      threads: 3,
      tokens: 4,
      items: 200,
    });
    const { events } = capture(s);
    const rings = [0, 1, 2].map((w) => new RingWriter(4096, w));
    for (const e of events) expect(rings[e.worker].push(e)).toBe(true);
    const decoded = rings.flatMap((ring) => readRing(ring.buffer, 0).events);
    const strip = decoded.map(({ seq: _seq, ...rest }) => rest);
    const byWorker = (list: typeof events) =>
      [0, 1, 2].flatMap((w) => list.filter((e) => e.worker === w));
    expect(strip).toEqual(byWorker(events));
    for (const w of [0, 1, 2]) {
      const seqs = decoded.filter((e) => e.worker === w).map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i));
    }
  });
});
