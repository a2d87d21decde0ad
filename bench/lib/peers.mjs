// The peers each benchmark must measure beside ours, and the decision that a report without one
// is not written: a ratio "ours vs a peer" with the peer missing would be read as a claim with
// nothing behind it, so the driver stops, naming the peer and where it comes from.
import { toolSource } from '../../scripts/bootstrap.mjs';

const QUEUE_GROUPS = ['comm-2', 'comm-4', 'matrix-2', 'matrix-4'];
const QUEUE_TARGETS = ['native', 'wasm-node', 'wasm-chromium'];

/**
 * Peer name (a row's `queue` or `runtime`) → the benchmark and groups it belongs in, the targets
 * it runs on, and where it comes from (a bootstrap tool, or an npm package of the lockfile).
 * @type {Record<string, {bench: string, groups: string[], targets: string[], tool?: string,
 *   npm?: string}>}
 */
export const PEERS = {
  'moodycamel-rwq': {
    bench: 'queues',
    groups: QUEUE_GROUPS,
    targets: QUEUE_TARGETS,
    tool: 'moodycamel',
  },
  'boost-spsc': { bench: 'queues', groups: QUEUE_GROUPS, targets: QUEUE_TARGETS, tool: 'boost' },
  'ringbuf-js': {
    bench: 'queues',
    groups: ['comm-2'],
    targets: ['wasm-node', 'wasm-chromium'],
    npm: 'ringbuf.js',
  },
  onetbb: {
    bench: 'pipelines',
    groups: ['vs-onetbb-10us', 'vs-onetbb-1000us', 'scaling', 'stages'],
    targets: ['native'],
    tool: 'tbb',
  },
};

const source = (peer) =>
  peer.tool ? toolSource(peer.tool) : `the npm package ${peer.npm} (installed by npm ci)`;

/**
 * The peers missing from a report: for every group the rows measured, each peer that belongs in
 * that group on this target but has no row there.
 * @param {string} bench  'queues' | 'pipelines'
 * @param {string} target
 * @param {{group: string, queue?: string, runtime?: string}[]} rows
 * @returns {{peer: string, groups: string[]}[]}
 */
export function missingPeers(bench, target, rows) {
  const measured = new Set(rows.map((row) => row.group));
  const missing = [];
  for (const [name, peer] of Object.entries(PEERS)) {
    if (peer.bench !== bench || !peer.targets.includes(target)) continue;
    const groups = peer.groups.filter(
      (group) =>
        measured.has(group) &&
        !rows.some((row) => row.group === group && (row.queue ?? row.runtime) === name),
    );
    if (groups.length) missing.push({ peer: name, groups });
  }
  return missing;
}

/** Throws, naming each missing peer and where it comes from, unless every peer is there. */
export function requirePeers(bench, target, rows) {
  const missing = missingPeers(bench, target, rows);
  if (missing.length === 0) return;
  const lines = missing.map(
    ({ peer, groups }) => `  - ${peer}: ${source(PEERS[peer])}; no result in ${groups.join(', ')}`,
  );
  throw new Error(
    `bench:${bench} on ${target}: a peer gave no result, so no report is written (a comparison ` +
      `without its peer would say nothing).\n${lines.join('\n')}\n` +
      `\`npm run bench:${bench}\` installs the peers where it can; otherwise install them yourself.`,
  );
}
