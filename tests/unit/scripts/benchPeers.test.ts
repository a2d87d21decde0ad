// A benchmark whose peer is missing fails loudly: the decision (bench/lib/peers.mjs) and its link
// with the bootstrap, which must install every peer a bench command measures.
import { describe, expect, test } from 'vitest';
import { NEEDS } from '../../../scripts/bootstrap.mjs';
import { PEERS, missingPeers, requirePeers } from '../../../bench/lib/peers.mjs';

const pipelineRow = (group: string, runtime: string) => ({ group, runtime });
const queueRow = (group: string, queue: string) => ({ group, queue });

describe('requirePeers', () => {
  test('pipelines on native without oneTBB rows: throws naming oneTBB and its package', () => {
    const rows = [
      pipelineRow('vs-onetbb-10us', 'work-stealing'),
      pipelineRow('scaling', 'work-stealing'),
    ];
    expect(() => requirePeers('pipelines', 'native', rows)).toThrow(/onetbb: oneTBB/);
    expect(() => requirePeers('pipelines', 'native', rows)).toThrow(/libtbb-dev/);
    expect(missingPeers('pipelines', 'native', rows)).toEqual([
      { peer: 'onetbb', groups: ['vs-onetbb-10us', 'scaling'] },
    ]);
  });

  test('pipelines on native with oneTBB in every group that needs it: passes', () => {
    const rows = ['vs-onetbb-10us', 'scaling'].flatMap((g) => [
      pipelineRow(g, 'work-stealing'),
      pipelineRow(g, 'onetbb'),
    ]);
    expect(() => requirePeers('pipelines', 'native', rows)).not.toThrow();
  });

  test('oneTBB is only a native peer, and only in its groups', () => {
    expect(
      missingPeers('pipelines', 'wasm-node', [pipelineRow('scaling', 'work-stealing')]),
    ).toEqual([]);
    expect(
      missingPeers('pipelines', 'native', [pipelineRow('telemetry', 'work-stealing')]),
    ).toEqual([]);
  });

  test('queues in wasm without ringbuf.js: throws naming the npm package', () => {
    const rows = ['batch', 'moodycamel-rwq', 'boost-spsc'].map((q) => queueRow('comm-2', q));
    expect(() => requirePeers('queues', 'wasm-chromium', rows)).toThrow(
      /ringbuf-js: .*ringbuf\.js/,
    );
    expect(() => requirePeers('queues', 'native', rows)).not.toThrow();
  });

  test('queues natively without boost in one group: names that group', () => {
    const rows = [
      ...['batch', 'moodycamel-rwq', 'boost-spsc'].map((q) => queueRow('comm-2', q)),
      ...['batch', 'moodycamel-rwq'].map((q) => queueRow('matrix-4', q)),
    ];
    expect(missingPeers('queues', 'native', rows)).toEqual([
      { peer: 'boost-spsc', groups: ['matrix-4'] },
    ]);
  });
});

describe('the bootstrap sets up every peer', () => {
  test.each(Object.entries(PEERS).filter(([, peer]) => peer.tool))(
    '%s is installed by npm run bench:<its bench> and npm run bench',
    (_, peer) => {
      expect(NEEDS[`bench:${peer.bench}` as keyof typeof NEEDS]).toContain(peer.tool);
      expect(NEEDS.bench).toContain(peer.tool);
    },
  );
});
