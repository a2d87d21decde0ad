// Says when a finished run on real threads looks disturbed (src/model/disturbance.ts): in plain
// words next to the run's numbers, with what to do, the model's number staying beside it. A run on
// a loaded machine measured a quarter of the model and the page offered no hint why.
import { meanServiceUs, runDisturbance, type ModelOverlay } from '../../model';
import { itemNoun, modelItemsPerSec } from '../../runtimes';
import { visitorCores } from '../../engine/isolation';
import { formatRate } from '../../views/format';
import type { LessonRunView } from './useLessonRun';

/** A running run is judged once this many items (and a tenth of its items) are out. */
const MIN_ITEMS = 20;

const us = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)} ms` : `${Math.round(x)} µs`);

export function DisturbedNote({ run, models }: { run: LessonRunView; models: ModelOverlay[] }) {
  const summary = run.summary;
  if (run.engine !== 'threads' || run.replay || !summary) return null;
  // A finished run, or one far enough in for its rate to mean something.
  const enough = summary.completed >= Math.max(MIN_ITEMS, summary.items / 10);
  if (!(run.state === 'done' || (run.state === 'running' && enough))) return null;
  const spec = run.spec;
  const model = models.length > 0 ? modelItemsPerSec(models[0], spec) : null;
  const d = runDisturbance({
    itemsPerSec: summary.itemsPerSec,
    modelItemsPerSec: model,
    coresToSpare: spec.threads <= visitorCores(),
    stages: spec.stages.map((s, i) => ({
      name: s.name,
      serviceUs: meanServiceUs(s.service),
      busyUs: run.counters[i]?.busyUs ?? 0,
      items: run.counters[i]?.itemsIn ?? 0,
    })),
  });
  if (!d) return null;
  const noun = itemNoun(spec);
  const signs = [
    d.slowest &&
      `${d.slowest.name} took ${us(d.slowest.measuredUs)} per item where it was set to take ${us(d.slowest.configuredUs)}`,
    d.throughputShare !== null &&
      model !== null &&
      `it made ${Math.round(100 * d.throughputShare)}% of the model's ${formatRate(model)} ${noun}/s although every thread had a core of its own`,
  ].filter(Boolean);
  return (
    <p className="notice disturbed" data-testid="disturbed">
      <strong>{run.state === 'done' ? 'This run looks' : 'This run is looking'} disturbed:</strong>{' '}
      {signs.join(', and ')}. Other programs were probably using your cores. Close other tabs and
      programs and run again; the model&apos;s number is what an undisturbed run comes close to.
    </p>
  );
}
