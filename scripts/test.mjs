// `npm test`: set up what is missing, then run every suite — native C++ (CTest), the same under
// ThreadSanitizer, the C++ in wasm under Node, Vitest unit tests, the wasm module under Node, and
// end-to-end tests in Chromium, plus lint — and print one summary. Exits non-zero on any failure.
// `npm test -- <word>` runs only the suites whose name contains the word (e.g. `npm test -- lint`).
import { bootstrap } from './bootstrap.mjs';
import { SUITES } from './lib/suites.mjs';

const filter = process.argv[2];

try {
  bootstrap('test');
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}

const rows = [];
for (const suite of SUITES) {
  if (filter && !suite.name.includes(filter)) continue;
  console.log(`\n=== ${suite.name} ===`);
  const t0 = Date.now();
  let counts;
  try {
    counts = await suite.run();
  } catch (e) {
    console.error(`${suite.name}: ${e.message}`);
    counts = { passed: 0, failed: 1 };
  }
  if (counts.passed + counts.failed === 0) counts = { passed: 0, failed: 1, note: 'ran no test' };
  rows.push({ name: suite.name, ...counts, seconds: (Date.now() - t0) / 1000 });
}

const width = Math.max(...rows.map((r) => r.name.length));
console.log('\nSummary');
for (const r of rows) {
  const status = r.failed ? 'FAIL' : 'ok  ';
  console.log(
    `  ${status} ${r.name.padEnd(width)}  ${String(r.passed).padStart(5)} passed  ${String(r.failed).padStart(3)} failed  ${r.seconds.toFixed(0).padStart(5)} s${r.note ? `  (${r.note})` : ''}`,
  );
}
const passed = rows.reduce((a, r) => a + r.passed, 0);
const failed = rows.reduce((a, r) => a + r.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
