// QueueLayoutView: fields cut at line boundaries, lines written by both cores found, and the
// marks carry who writes each field; CacheLineView draws an idle queue without a data-kind and a
// live one as measured.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { QueueLayout } from '../../../src/spec/raceConfig';
import { BatchQueueTracker } from '../../../src/live/batchQueueState';
import { CacheLineView } from '../../../src/views/CacheLineView';
import { placeFields, QueueLayoutView, sharedLines } from '../../../src/views/QueueLayoutView';

const unpadded: QueueLayout = {
  objectBytes: 128,
  lineBytes: 64,
  fields: [
    { name: 'producer state', offset: 8, bytes: 40, writer: 'producer' },
    { name: 'consumer state', offset: 48, bytes: 40, writer: 'consumer' },
    { name: 'status flag', offset: 88, bytes: 1, writer: 'both' },
  ],
};

test('a field across a line boundary is cut in two; lines with both writers are shared', () => {
  const placed = placeFields(unpadded);
  expect(placed.filter((p) => p.name === 'consumer state')).toEqual([
    expect.objectContaining({ line: 0, from: 48, to: 64 }),
    expect.objectContaining({ line: 1, from: 0, to: 24 }),
  ]);
  expect([...sharedLines(placed)].sort()).toEqual([0, 1]);
  const padded = placeFields({
    ...unpadded,
    fields: [
      { name: 'producer state', offset: 128, bytes: 20, writer: 'producer' },
      { name: 'consumer state', offset: 256, bytes: 20, writer: 'consumer' },
      { name: 'buffer pointer', offset: 0, bytes: 4, writer: 'none' },
    ],
  });
  expect(sharedLines(padded).size).toBe(0);
  const html = renderToStaticMarkup(<QueueLayoutView layout={unpadded} title="t" />);
  expect(html).toContain('data-shared-lines="2"');
  expect(html).toContain('data-writer="both"');
});

test('the cache-line view: idle without a data-kind, a run as measured', () => {
  const t = new BatchQueueTracker(8, 16);
  const idle = renderToStaticMarkup(<CacheLineView state={t.snapshot()} />);
  expect(idle).not.toContain('data-kind');
  expect(idle).toContain('data-items-written="0"');
  const live = renderToStaticMarkup(<CacheLineView state={t.snapshot()} kind="measured" />);
  expect(live).toContain('data-kind="measured"');
  expect((live.match(/data-testid="cache-line"/g) ?? []).length).toBe(4); // 2 lines x 2 halves
});
