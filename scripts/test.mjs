// `npm test`: set up what is missing, then run every suite — native C++ (CTest), lint, the same
// C++ under ThreadSanitizer, the C++ in wasm under Node, Vitest unit tests, the wasm module under
// Node, and end-to-end tests in Chromium — and print one summary with each suite's wall and CPU
// time. Exits non-zero on any failure.
// `npm test -- <word>` runs only the suites whose name contains the word (e.g. `npm test -- lint`);
// `npm test -- --full` also builds and runs every C++ test program in wasm (wasm/cmake/testing.cmake).
import { readFileSync } from 'node:fs';
import { bootstrap } from './bootstrap.mjs';
import { SUITES } from './lib/suites.mjs';

const args = process.argv.slice(2);
const full = args.includes('--full');
const unknownFlags = args.filter((a) => a.startsWith('--') && a !== '--full');
if (unknownFlags.length) {
  console.error(`npm test: unknown flag ${unknownFlags.join(', ')} (known: --full)`);
  process.exit(1);
}
const filter = args.find((a) => !a.startsWith('--'));
const chosen = SUITES.filter((s) => !filter || s.name.includes(filter));

/** CPU seconds (user + system) this process and its finished children have used; null where
 * /proc is missing (not Linux). Fields 14-17 of /proc/self/stat, in clock ticks (100 a second
 * on Linux whatever the kernel's HZ). */
function cpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return fields.slice(11, 15).reduce((a, f) => a + Number(f), 0) / 100;
  } catch {
    return null;
  }
}

const rows = [];
/** Times `step` (wall and CPU) into a summary row; a throw counts as one failure. */
async function timed(name, step) {
  const t0 = Date.now();
  const cpu0 = cpuSeconds();
  let counts;
  try {
    counts = await step();
  } catch (e) {
    console.error(`${name}: ${e.message}`);
    counts = { passed: 0, failed: 1 };
  }
  const cpu1 = cpuSeconds();
  const cpu = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
  rows.push({ name, ...counts, seconds: (Date.now() - t0) / 1000, cpu });
}

// Node packages install in the background while the first suite (native C++) builds, which needs
// none: on a fresh clone `npm ci` spent 27 s waiting on the network and disk with a core idle.
// Every suite's tests start only once it is done, so no test shares the machine with it.
let nodeModules;
try {
  nodeModules = bootstrap('test', { nodeModulesInBackground: true }).catch((e) => {
    console.error(`\n${e.message}`);
    process.exit(1);
  });
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}

for (const suite of chosen) {
  console.log(`\n=== ${suite.name} ===`);
  await timed(suite.name, async () => {
    if (suite.build) await suite.build({ full });
    await nodeModules;
    const counts = await suite.test({ full });
    return counts.passed + counts.failed === 0
      ? { passed: 0, failed: 1, note: 'ran no test' }
      : counts;
  });
}

const width = Math.max(...rows.map((r) => r.name.length));
const cpuText = (r) => (r.cpu === null ? '' : `${r.cpu.toFixed(0).padStart(5)} s CPU`);
console.log('\nSummary (wall time, and CPU time: user + system of every process the step ran)');
for (const r of rows) {
  const status = r.failed ? 'FAIL' : 'ok  ';
  console.log(
    `  ${status} ${r.name.padEnd(width)}  ${String(r.passed).padStart(5)} passed  ${String(r.failed).padStart(3)} failed  ${r.seconds.toFixed(0).padStart(5)} s  ${cpuText(r)}${r.note ? `  (${r.note})` : ''}`,
  );
}
const passed = rows.reduce((a, r) => a + r.passed, 0);
const failed = rows.reduce((a, r) => a + r.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
