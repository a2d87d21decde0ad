// Case 1's two readings of T_arr (src/model/staticModels.ts), on the balancing lesson's ferret
// profile (lessons/03: 7.32 ms of work per image, rank the slow stage, N = 20): the literal
// max T_ser gives the slowest stage's own tokens a whole service time to think, capping it at
// N/(2·T_max), so the collapsed stage never reaches the input bound and c_opt does not exist; the
// per-server max T_ser/c reaches it, with the paper's c_opt. The lesson's checked claims state
// the Fig. 6a comparisons; this file holds the mechanism.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { closedStaticModel, DEFAULT_READING } from '../../../src/model/staticModels';
import { sizing } from '../../../src/model/sizing';
import { applyControls } from '../../../src/lessons/controls';
import { validateLessonMeta } from '../../../src/lessons/lessonFormat';

const text = readFileSync(
  resolve(__dirname, '../../../lessons/03-balancing-a-static-pipeline.md'),
  'utf8',
);
const meta = validateLessonMeta(parse(/^---\n([\s\S]*?)\n---/.exec(text)![1]));
const at = (values: Record<string, number | string>) =>
  applyControls(meta.experimentSource, meta.controls, values);

describe('Case 1 on the ferret profile', () => {
  const midUs = 600 + 300 + 550 + 5380;

  test('the literal reading caps the collapsed stage at N/(2·T_max), below the input bound', () => {
    const spec = at({ layout: '3', npTh: 64, queue: 20 });
    const literal = closedStaticModel(spec, { reading: 'max-service' });
    expect(literal.arrivalTimeUs).toBe(midUs);
    expect(literal.throughputPerUs).toBeCloseTo(20 / (2 * midUs), 12);
    expect(literal.throughputPerUs).toBeLessThan(0.7 / 470);
    expect(sizing(spec, { reading: 'max-service' }).cOptimal).toBeNull();
  });

  test('the per-server reading is the default and reaches the input bound', () => {
    expect(DEFAULT_READING).toBe('max-service-per-server');
    const spec = at({ layout: '3', npTh: 64, queue: 20 });
    const perServer = closedStaticModel(spec);
    expect(perServer.arrivalTimeUs).toBe(470);
    expect(perServer.throughputPerUs).toBeCloseTo(1 / 470, 6);
  });

  test('c_opt through Eq. 3 at N = 20: 15 collapsed, 12 per stage for six stages', () => {
    expect(sizing(at({ layout: '3', queue: 20 })).cOptimal).toBe(15);
    const six = sizing(at({ layout: '6', queue: 20 }));
    expect(six.cOptimal).toBe(48);
    expect(six.cOptimalPerStage).toBe(12);
    // c_opt moves with N, as the bound c/T alone would not: with 8 items no npTh gets there.
    const short = sizing(at({ layout: '3', queue: 20 }), { size: 8 });
    expect(short.cOptimal).toBeNull();
    expect(short.why).toEqual(['no npTh up to 254 brings λe within 2% of λ_max at N = 8']);
  });
});
