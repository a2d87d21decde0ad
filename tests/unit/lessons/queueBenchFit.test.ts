// A paper row's benchmark ratio reports only runs that fit their machine: a run whose threads
// outnumbered the CPUs it ran on is refused, naming the row and both counts, and every reported
// ratio says where it ran — its date, its CPUs and its highest 1-minute load.
import { expect, test } from 'vitest';
import native from '../../../bench/results/queues-native.json';
import { benchRatio } from '../../../src/lessons/queueBench';

const cpus = native.machine.cpus;

test('a ratio says its date, CPUs and load', () => {
  expect(benchRatio('native', 'comm-2/batch', 'comm-2/vyukov-mpmc').evidence).toMatch(
    new RegExp(`native, \\d{4}-\\S+, ${cpus} CPUs, 1-minute load up to [\\d.]+$`),
  );
});

test('a chain of 4 threads is reported only from a machine with 4 CPUs or more', () => {
  const chain = () => benchRatio('native', 'comm-4/batch', 'comm-4/vyukov-mpmc');
  if (cpus < 4)
    expect(chain).toThrow(
      new RegExp(`row comm-4/batch ran 4 threads on ${cpus} CPUs: its threads took turns`),
    );
  else expect(chain().ratio).toBeGreaterThan(0);
});
