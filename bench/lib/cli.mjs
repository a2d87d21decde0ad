// Command-line plumbing shared by the benchmark drivers: flags parsed with Node's util.parseArgs
// (strict: an unknown flag or a bad value stops the driver with a message naming it, the allowed
// range and the usage), and one way to end a driver on an error.
import { parseArgs } from 'node:util';

/**
 * @typedef {{type: 'integer' | 'number', default: number, min: number, max: number, help: string}
 *   | {type: 'list', default: readonly string[], allowed?: readonly string[], help: string}
 *   | {type: 'boolean', help: string}} FlagSpec
 */

/** The usage text of a driver, one line per flag. */
export function usage(command, specs) {
  const lines = Object.entries(specs).map(([name, spec]) => {
    const value = spec.type === 'boolean' ? '' : spec.type === 'list' ? ' A,B' : ' N';
    const range =
      spec.type === 'integer' || spec.type === 'number'
        ? ` (${spec.min}..${spec.max}, default ${spec.default})`
        : spec.type === 'list'
          ? ` (${spec.allowed ? `any of ${spec.allowed.join(',')}; ` : ''}default ${spec.default.join(',') || 'all'})`
          : '';
    return `  --${name}${value}  ${spec.help}${range}`;
  });
  return `usage: ${command} [flags]\n${lines.join('\n')}`;
}

function convert(name, spec, text) {
  if (spec.type === 'integer' || spec.type === 'number') {
    const value = Number(text);
    const whole = spec.type === 'integer' ? Number.isInteger(value) : Number.isFinite(value);
    if (text === '' || !whole || value < spec.min || value > spec.max)
      throw new Error(
        `--${name} ${text} is out of range (allowed ${spec.type === 'integer' ? 'integers ' : ''}${spec.min}..${spec.max})`,
      );
    return value;
  }
  const items = text.split(',').filter(Boolean);
  const bad = spec.allowed ? items.filter((item) => !spec.allowed.includes(item)) : [];
  if (items.length === 0 || bad.length)
    throw new Error(
      `--${name} ${text}: ${bad.length ? `unknown ${bad.join(', ')}` : 'empty'} (allowed: ${spec.allowed?.join(', ') ?? 'a comma-separated list'})`,
    );
  return items;
}

/**
 * Parses a driver's flags; throws an Error naming the bad flag or value, followed by the usage.
 * @param {string} command  how the user runs the driver (for messages), e.g. 'npm run bench:queues --'
 * @param {Record<string, FlagSpec>} specs
 * @param {string[]} argv
 * @returns {Record<string, any>}  every flag, with its default when not given
 */
export function parseFlags(command, specs, argv = process.argv.slice(2)) {
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.type === 'boolean' ? 'boolean' : 'string' },
    ]),
  );
  try {
    const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
    return Object.fromEntries(
      Object.entries(specs).map(([name, spec]) => {
        const given = values[name];
        if (spec.type === 'boolean') return [name, given === true];
        return [name, given === undefined ? spec.default : convert(name, spec, String(given))];
      }),
    );
  } catch (e) {
    throw new Error(`${e.message}\n${usage(command, specs)}`, { cause: e });
  }
}

/** Runs a driver's main function; on an error prints its message (no stack) and exits 1. */
export function runMain(name, main) {
  main().catch((e) => {
    console.error(`\n${name}: ${e.message}`);
    process.exit(1);
  });
}
