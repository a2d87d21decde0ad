// PipelineView markup: thread dots per stage (busy filled), queues with capacity cells or
// proportional tubes, bubble styling for idle stages, the worker pool of work-stealing runtimes.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { PipelineView, type PipelineViewProps } from '../../../src/views/PipelineView';
import { stageColor } from '../../../src/views/stageColors';
import type { StageCounters } from '../../../src/telemetry';

/** Attributes of every `<name ...>` tag in the markup whose class list contains `cls` (if given). */
function tags(html: string, name: string, cls?: string): Array<Record<string, string>> {
  const found = [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
  return cls ? found.filter((t) => (t.class ?? '').split(' ').includes(cls)) : found;
}

function counters(occupancy: number[], itemsOut: number[] = []): StageCounters[] {
  return occupancy.map((q, i) => ({
    itemsIn: 0,
    itemsOut: itemsOut[i] ?? 0,
    queueOccupancy: q,
    busyUs: 0,
    idleUs: 0,
    blockedUs: 0,
  }));
}

const base: PipelineViewProps = {
  runtime: 'static',
  stages: [
    { name: 'input', mode: 'serial-in-order', threads: 1 },
    { name: 'extract', mode: 'parallel', threads: 4 },
    { name: 'output', mode: 'serial-in-order', threads: 1 },
  ],
  counters: counters([0, 3, 1], [1234, 1200, 1100]),
  busyByStage: [1, 2, 0],
  queueCapacity: 4,
  source: 'threads',
};

const render = (p: Partial<PipelineViewProps> = {}) =>
  renderToStaticMarkup(<PipelineView {...base} {...p} />);

describe('PipelineView', () => {
  test('no stages: a hint instead of a drawing', () => {
    const html = render({ stages: [], counters: [], busyByStage: [] });
    expect(html).toContain('No pipeline yet');
    expect(html).toContain('role="img"');
    expect(tags(html, 'rect')).toHaveLength(0);
  });

  test('one dot per thread, the busy ones filled in the stage colour', () => {
    const html = render();
    expect(tags(html, 'circle', 'thread')).toHaveLength(6);
    const busy = tags(html, 'circle', 'busy');
    expect(busy).toHaveLength(3);
    expect(busy.filter((t) => t.style === `fill:${stageColor(1)}`)).toHaveLength(2);
  });

  test('an idle stage is a bubble: dashed idle box and named in the summary', () => {
    const html = render();
    const stages = tags(html, 'g').filter((t) => t['data-testid'] === 'stage');
    expect(stages.map((s) => s['data-idle'])).toEqual(['false', 'false', 'true']);
    expect(tags(html, 'rect', 'idle')).toHaveLength(1);
    expect(tags(html, 'text', 'bubble-label')).toHaveLength(1);
    expect(html).toContain('bubbles at output');
    expect(render({ busyByStage: [1, 1, 1] })).toContain('no bubbles');
  });

  test('paused or ended, no stage is a bubble; paused says so', () => {
    const paused = render({ runState: 'paused' });
    expect(tags(paused, 'text', 'bubble-label')).toHaveLength(0);
    expect(tags(paused, 'rect', 'idle')).toHaveLength(0);
    expect(tags(paused, 'text', 'paused-label')).toHaveLength(1);
    expect(paused).toContain('; paused');
    const ended = render({ runState: 'ended' });
    expect(tags(ended, 'text', 'bubble-label')).toHaveLength(0);
    expect(tags(ended, 'text', 'paused-label')).toHaveLength(0);
    expect(ended).toContain('not running');
    expect(tags(render({ runState: 'running' }), 'text', 'bubble-label')).toHaveLength(1);
  });

  test('a queue in front of every stage but the first, cells filled by occupancy', () => {
    const html = render();
    expect(tags(html, 'g').filter((t) => t['data-testid'] === 'queue')).toHaveLength(2);
    expect(tags(html, 'rect', 'queue-cell')).toHaveLength(8);
    expect(tags(html, 'rect', 'full')).toHaveLength(4);
    expect(html).toContain('3/4');
  });

  test('a large queue is a tube whose fill is proportional to occupancy', () => {
    const html = render({ queueCapacity: 100, counters: counters([0, 25, 50]) });
    const track = tags(html, 'rect', 'queue-track');
    const fill = tags(html, 'rect', 'queue-fill').map((t) => Number(t.height));
    expect(track).toHaveLength(2);
    expect(Math.round((100 * fill[0]) / Number(track[0].height))).toBe(25);
    expect(Math.round((100 * fill[1]) / Number(track[1].height))).toBe(50);
  });

  test('an unbounded queue is an open-topped tube with a number', () => {
    const html = render({ queueCapacity: null, counters: counters([0, 42, 7]) });
    expect(html).toContain('data-capacity="unbounded"');
    expect(tags(html, 'path', 'open')).toHaveLength(2);
    expect(html).toContain('>42<');
    expect(tags(html, 'rect', 'queue-fill')).toHaveLength(2);
  });

  test('NaN and Infinity are skipped, never drawn', () => {
    const html = render({
      queueCapacity: 100,
      counters: counters([0, Number.NaN, Number.POSITIVE_INFINITY], [Number.NaN, 5, 5]),
      busyByStage: [Number.NaN, 1, 1],
    });
    expect(tags(html, 'rect', 'queue-fill')).toHaveLength(0);
    expect(html).not.toMatch(/NaN|Infinity/);
    expect(html).toContain('–');
    expect(tags(html, 'circle', 'busy')).toHaveLength(2);
  });

  test('more threads than fit: dots capped, the rest counted; long names cut', () => {
    const stages = [
      { name: 'a-very-long-stage-name-indeed', mode: 'parallel' as const, threads: 40 },
    ];
    const html = render({ stages, counters: counters([0]), busyByStage: [40], width: 300 });
    const dots = tags(html, 'circle', 'thread').length;
    expect(dots).toBeLessThan(40);
    expect(html).toContain(`+${40 - dots}<`);
    const name = /class="stage-name">([^<]*)</.exec(html)![1];
    expect(name).toMatch(/^a-very-.*…$/);
    expect(html).toContain('a-very-long-stage-name-indeed 40 busy');
  });

  test('items done per stage, with thousands separators', () => {
    expect(render()).toContain('1,234');
  });

  test('marks say where they came from', () => {
    const measured = render();
    expect(measured).toContain('data-kind="measured"');
    expect(measured).not.toContain('data-kind="simulated"');
    const simulated = render({ source: 'simulation' });
    expect(simulated).toContain('data-kind="simulated"');
    expect(simulated).not.toContain('data-kind="measured"');
  });

  test('work stealing: a pool of workers coloured by the stage they serve, no stage threads', () => {
    const html = render({
      runtime: 'work-stealing',
      workerPool: true,
      workerStage: [0, 1, 1, null, 7],
      busyByStage: [1, 2, 0],
    });
    expect(tags(html, 'circle', 'thread')).toHaveLength(0);
    const workers = tags(html, 'circle', 'worker');
    expect(workers.map((w) => w['data-stage'])).toEqual(['0', '1', '1', 'idle', 'idle']);
    expect(tags(html, 'circle', 'busy')).toHaveLength(3);
    expect(html).toContain('>2 busy<');
    expect(tags(html, 'rect', 'idle')).toHaveLength(1);
  });
});
