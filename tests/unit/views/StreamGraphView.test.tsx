// StreamGraphView markup: a node per task with its state, thread and phase counter (running ones in
// their thread's colour), a buffer per stream showing its full phases of the bound (and whether a
// cycle turned batching off), the sieve's chain cut in the middle when long, a stalled run named.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { BoardStream, BoardTask } from '../../../src/telemetry';
import { StreamGraphView } from '../../../src/views/StreamGraphView';
import {
  MAX_SIEVE_NODES,
  plannedStreams,
  plannedTasks,
} from '../../../src/views/streamGraphLayout';
import { threadColor } from '../../../src/views/threadColors';
import type { ExperimentSpec } from '../../../src/spec/experimentSpec';
import { avgPipeline, ring, sieve, splitJoin } from '../sim/phaserSpecs';
import { sieveBoard } from './sieveBoard';

/** The view's markup for `spec`: its planned tasks and streams unless given. */
function draw(
  spec: ExperimentSpec,
  {
    tasks = plannedTasks(spec),
    streams = plannedStreams(spec),
    stalled = false,
    source = 'threads',
  }: {
    tasks?: BoardTask[];
    streams?: BoardStream[];
    stalled?: boolean;
    source?: 'threads' | 'simulation';
  } = {},
): string {
  return renderToStaticMarkup(
    <StreamGraphView
      spec={spec}
      tasks={tasks}
      streams={streams}
      stalled={stalled}
      source={source}
    />,
  );
}

function tags(html: string, name: string, attr: string): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))]
    .map((m) =>
      Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
    )
    .filter((t) => attr in t);
}

describe('StreamGraphView', () => {
  test('before a run: the spec tasks and streams, nothing full', () => {
    const html = draw(splitJoin({ items: 10 }, 4));
    const nodes = tags(html, 'g', 'data-task');
    expect(nodes).toHaveLength(6); // source, 4 splitters, join
    expect(nodes.every((n) => n['data-state'] === 'new')).toBe(true);
    const buffers = tags(html, 'g', 'data-full');
    expect(buffers.map((b) => b['data-full'])).toEqual(['0', '0']);
    expect(html).toContain('data-testid="stream-graph"');
    expect(html).toContain('data-kind="measured"');
  });

  test('running tasks take their thread colour; a stream shows its full phases of the bound', () => {
    const spec = avgPipeline({ items: 10, bound: 4 });
    const tasks: BoardTask[] = plannedTasks(spec).map((t, i) => ({
      ...t,
      state: i === 1 ? 'running' : 'waiting-input',
      thread: i === 1 ? 1 : 0,
      phase: 10 * i,
    }));
    const streams: BoardStream[] = plannedStreams(spec).map((s, k) => ({
      ...s,
      signalled: 7 + k,
      waited: 4,
    }));
    const html = draw(spec, { tasks, streams, source: 'simulation' });
    // The running task's own box (not only the legend) carries its thread's colour, as a style
    // so the stylesheet's box fill cannot hide it; the others do not.
    const box = (task: number) =>
      new RegExp(`data-task="${task}"[^>]*>(<title>[^<]*</title>)?<rect[^>]*>`).exec(html)?.[0] ??
      '';
    expect(box(1)).toContain(`style="fill:${threadColor(1)}"`);
    expect(box(0)).not.toContain('style=');
    expect(tags(html, 'g', 'data-task').map((n) => n['data-phase'])).toEqual([
      '0',
      '10',
      '20',
      '30',
    ]);
    // 3, 4 and (clamped to the bound) 4 of 4 phases full.
    expect(tags(html, 'g', 'data-full').map((b) => b['data-full'])).toEqual(['3', '4', '4']);
    expect(html).toContain('data-kind="simulated"');
  });

  test('a ring shows its streams as a cycle (batching off)', () => {
    const html = draw(ring({ items: 10, batch: 64 }, 5));
    const buffers = tags(html, 'g', 'data-cyclic');
    expect(buffers).toHaveLength(5);
    expect(buffers.every((b) => b['data-cyclic'] === 'true')).toBe(true);
    // Said once under the ring, not on each buffer (there the labels overlapped their neighbours).
    expect(html.split('each signal passes 1 phase').length - 1).toBe(1);
    expect(html.split('(cycle: 1/phase)</title>').length - 1).toBe(5);
  });

  /** The sieve to 1000 with `filters` filter tasks and the chain's links between them. */
  function sieveChain(filters: number) {
    const spec = sieve({}, 1000);
    const { tasks, links } = sieveBoard(spec, filters, (i) => 2 + i);
    return { spec, tasks, streams: [...plannedStreams(spec), ...links] };
  }

  test('a long sieve chain is cut in the middle; the count says how many are hidden', () => {
    const filters = 100;
    const { spec, tasks, streams } = sieveChain(filters);
    const html = draw(spec, { tasks, streams, stalled: true });
    expect(tags(html, 'g', 'data-task')).toHaveLength(MAX_SIEVE_NODES + 2);
    expect(html).toContain(`stands for ${filters - MAX_SIEVE_NODES} more filter tasks`);
    expect(tags(html, 'g', 'data-hidden')).toEqual([
      expect.objectContaining({ 'data-hidden': String(filters - MAX_SIEVE_NODES) }),
    ]);
    // The links between shown filters are lines (those wrapping to the next row with 6 points),
    // and two more into and out of the dashed box; links to hidden filters are not drawn.
    const lines = tags(html, 'polyline', 'points').map((l) => l.points.split(' ').length);
    expect(lines).toHaveLength(MAX_SIEVE_NODES);
    expect(lines.filter((n) => n === 6).length).toBeGreaterThan(0);
    expect(lines.every((n) => n === 2 || n === 6)).toBe(true);
    expect(html).toContain('Stalled: no task can run');
  });

  test('a chain one filter longer than the cut is drawn whole: no box for one filter', () => {
    const { spec, tasks, streams } = sieveChain(MAX_SIEVE_NODES + 1);
    const html = draw(spec, { tasks, streams });
    expect(tags(html, 'g', 'data-task')).toHaveLength(MAX_SIEVE_NODES + 3);
    expect(tags(html, 'g', 'data-hidden')).toEqual([]);
    expect(html).not.toContain('stands for');
    expect(tags(html, 'polyline', 'points')).toHaveLength(MAX_SIEVE_NODES);
  });
});
