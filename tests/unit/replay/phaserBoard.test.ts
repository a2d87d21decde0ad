// A phaser run's replay shows its board as recorded: the recorder keeps the board (tasks and
// streams) at each frame where it changed, the file carries it through a save and an open, and
// the replay writes the board recorded at its clock into its tap — so a replayed sieve grows its
// stages again, at the start, the end, and after a seek back — within the board cap.
import { describe, expect, test } from 'vitest';
import { MAX_EVENTS, sampleAt, type Recording } from '../../../src/replay/recording';
import { parseRecording, recordingToJson } from '../../../src/replay/recordingFile';
import { ReplayRun } from '../../../src/replay/replayRun';
import { readTap } from '../../../src/telemetry';
import { primesThrough, sieve } from '../sim/phaserSpecs';
import { recordTwin, trackerFor, twinSpec } from './twinRecording';

const spec = sieve({ us: 500 }, 200);
const recording = recordTwin(spec);
const boardNow = (run: ReplayRun) => readTap(run.tap()).board;

describe('replay of a phaser (sieve) twin run', () => {
  test('the recording keeps the board where it changed, and the sieve grew in it', () => {
    const { boards } = recording;
    expect(boards.length).toBeGreaterThan(2);
    // A filter task per prime through 200 (its label: the prime), spawned as the run went.
    const primes = (b: (typeof boards)[number]) =>
      b.board.tasks.filter((t) => t.stage === 1 && t.label !== 0).map((t) => t.label);
    expect(primes(boards[0]).length).toBeLessThan(primesThrough(200).length);
    expect(primes(boards.at(-1)!)).toEqual(primesThrough(200));
    for (let i = 1; i < boards.length; i++) {
      expect(boards[i].timeUs).toBeGreaterThanOrEqual(boards[i - 1].timeUs);
      expect(boards[i].board).not.toEqual(boards[i - 1].board);
    }
  });

  test.each([
    ['as recorded', (r: Recording) => r],
    ['saved and opened', (r: Recording) => parseRecording(recordingToJson(r))],
  ])('the replay (%s) shows the board recorded at its clock', (_, copy) => {
    const rec = copy(recording);
    // (A saved file keeps times to the ns.)
    expect(rec.boards.map((b) => b.board)).toEqual(recording.boards.map((b) => b.board));
    const run = new ReplayRun(rec, trackerFor(rec), { playing: false });
    expect(boardNow(run)).toEqual(rec.boards[0].board);
    run.seek(rec.durationUs);
    expect(boardNow(run)).toEqual(rec.boards.at(-1)!.board);
    const middle = rec.boards[Math.floor(rec.boards.length / 2)];
    run.seek(middle.timeUs);
    expect(boardNow(run)).toEqual(middle.board);
    // Playing on from there, each frame shows the board of its time.
    for (let ms = 0; !run.position().atEnd && ms < 60_000; ms += 16) {
      run.resume();
      run.tick(ms);
      expect(boardNow(run)).toEqual((sampleAt(rec.boards, run.nowUs()) ?? rec.boards[0]).board);
    }
  });

  test('other runtimes record no board, and their files carry none', () => {
    const other = recordTwin(twinSpec('static'));
    expect(other.boards).toEqual([]);
    expect(recordingToJson(other)).not.toContain('"boards"');
    expect(parseRecording(recordingToJson(other)).boards).toEqual([]);
  });

  test('the board cap cuts the recording where the boards stop fitting', () => {
    const records = (r: Recording) =>
      r.boards.reduce((n, b) => n + b.board.tasks.length + b.board.streams.length, 0);
    const limit = Math.floor(records(recording) / 2);
    const cut = recordTwin(spec, {
      maxEvents: MAX_EVENTS,
      maxSamples: 36_000,
      maxBoardRecords: limit,
    });
    expect(cut.cap.reachedAtUs).not.toBeNull();
    expect(records(cut)).toBeLessThanOrEqual(limit);
    expect(cut.boards.length).toBeGreaterThan(0);
    expect(cut.boards.every((b) => b.timeUs <= cut.cap.reachedAtUs!)).toBe(true);
    expect(cut.durationUs).toBe(cut.cap.reachedAtUs);
  });
});
