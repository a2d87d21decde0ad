// The benchmark drivers' flags (bench/lib/cli.mjs): Node's util.parseArgs, strict.
import { describe, expect, test } from 'vitest';
import { parseFlags } from '../../../bench/lib/cli.mjs';

const SPECS = {
  repeats: { type: 'integer', default: 5, min: 1, max: 50, help: 'rounds' },
  seconds: { type: 'number', default: 0.15, min: 0.1, max: 10, help: 'run length' },
  targets: { type: 'list', default: ['a', 'b'], allowed: ['a', 'b', 'c'], help: 'targets' },
  quick: { type: 'boolean', help: 'shorter' },
} as const;

describe('parseFlags', () => {
  test('defaults when nothing is given', () => {
    expect(parseFlags('bench:x', SPECS, [])).toEqual({
      repeats: 5,
      seconds: 0.15,
      targets: ['a', 'b'],
      quick: false,
    });
  });

  test('values given', () => {
    const flags = parseFlags('bench:x', SPECS, ['--repeats', '3', '--targets', 'c', '--quick']);
    expect(flags).toMatchObject({ repeats: 3, targets: ['c'], quick: true });
  });

  test('an unknown flag is rejected, naming it, with the usage', () => {
    expect(() => parseFlags('bench:x', SPECS, ['--repeat', '3'])).toThrow(
      /Unknown option '--repeat'[\s\S]*usage: bench:x[\s\S]*--repeats N/,
    );
  });

  test('a value out of range names the flag, the value and the range', () => {
    expect(() => parseFlags('bench:x', SPECS, ['--seconds', '0.01'])).toThrow(
      /--seconds 0.01 is out of range \(allowed 0.1..10\)/,
    );
    expect(() => parseFlags('bench:x', SPECS, ['--repeats', '2.5'])).toThrow(
      /--repeats 2.5 is out of range \(allowed integers 1..50\)/,
    );
  });

  test('a list item that is not allowed is named', () => {
    expect(() => parseFlags('bench:x', SPECS, ['--targets', 'a,z'])).toThrow(
      /--targets a,z: unknown z \(allowed: a, b, c\)/,
    );
  });
});
