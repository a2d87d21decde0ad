// The test suites of `npm test`, each a function returning {passed, failed} counts parsed from its
// runner's own summary (CTest, GoogleTest, Vitest JSON). A suite that runs no test counts as failed.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { repoRoot, run, runCaptured, runCapturedAsync } from './proc.mjs';
import { BUILD_DIRS, buildCore, buildWebModules } from './wasm.mjs';

const artifacts = join(repoRoot, 'tests', 'artifacts');

/** CTest prints "N% tests passed, F tests failed out of T". */
function ctestCounts(output) {
  const m = output.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
  if (!m) return { passed: 0, failed: 1 };
  const failed = Number(m[2]);
  return { passed: Number(m[3]) - failed, failed };
}

/** GoogleTest prints "[  PASSED  ] N tests." and "[  FAILED  ] N tests, listed below:" per program. */
function gtestCounts(output) {
  let passed = 0;
  let failed = 0;
  for (const m of output.matchAll(/\[ {2}PASSED {2}\] (\d+) tests?\./g)) passed += Number(m[1]);
  for (const m of output.matchAll(/\[ {2}FAILED {2}\] (\d+) tests?, listed below/g))
    failed += Number(m[1]);
  return { passed, failed };
}

/**
 * The wasm test programs run as one CTest entry each; a program that crashes or hangs part-way
 * prints no summary for the tests it never reached. So each program's tests are counted first
 * (`--gtest_list_tests`), and every expected test that no summary accounts for counts as failed.
 * @param {string} dir  the Emscripten build folder
 * @param {string} output  `ctest -V` output (each line prefixed with its test number)
 */
export function wasmGtestCounts(dir, output, listTests = (program) => listGtests(dir, program)) {
  let passed = 0;
  let failed = 0;
  const notes = [];
  for (const [, number, program] of output.matchAll(/Start +(\d+): wasm\.(\w+)/g)) {
    const lines = output
      .split('\n')
      .filter((l) => l.startsWith(`${number}: `))
      .map((l) => l.slice(number.length + 2))
      .join('\n');
    const ran = gtestCounts(lines);
    const expected = listTests(program);
    const missing = Math.max(0, expected - ran.passed - ran.failed);
    passed += ran.passed;
    failed += ran.failed + missing;
    if (missing)
      notes.push(`${program}: ${missing} of ${expected} tests never reported (crashed or hung?)`);
  }
  return { passed, failed, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/** How many tests a wasm GoogleTest program holds (DISABLED_ ones are not run, so not counted). */
function listGtests(dir, program) {
  const { output } = runCaptured('node', [join(dir, `${program}.js`), '--gtest_list_tests'], {
    echo: false,
  });
  return output.split('\n').filter((l) => /^ {2}\S/.test(l) && !/^ {2}DISABLED_/.test(l)).length;
}

/** A hung test must fail, not eat CI's time: no single test may run longer than this. */
const CTEST_TIMEOUT_S = 240;

/** `-V` prints every program's output once; with it, --output-on-failure would print a failed
 * program's output twice and GoogleTest's summary lines would be counted twice. */
function ctest(dir, extra = []) {
  const verbose = extra.includes('-V');
  const { output } = runCaptured('ctest', [
    '--test-dir',
    dir,
    ...(verbose ? [] : ['--output-on-failure']),
    '--timeout',
    String(CTEST_TIMEOUT_S),
    ...extra,
  ]);
  return output;
}

function vitest(project) {
  mkdirSync(artifacts, { recursive: true });
  const report = join(artifacts, `vitest-${project}.json`);
  runCaptured('npx', [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (!existsSync(report)) return { passed: 0, failed: 1 };
  const r = JSON.parse(readFileSync(report, 'utf8'));
  // Failed tests, plus files that failed without running a test (an import error, a crash).
  const brokenFiles = r.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  ).length;
  const failed = r.numFailedTests + brokenFiles;
  return { passed: r.numPassedTests, failed };
}

function trackedFiles(patterns) {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard', ...patterns], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => f && existsSync(join(repoRoot, f)));
}

/** Each lint tool is one check: passed when it reports nothing. The four run side by side: each
 * is one busy thread at most, and one after another they left a core idle for 40 s. */
async function lint() {
  const checks = [
    ['npx', ['eslint', '--max-warnings=0', '.']],
    ['npx', ['prettier', '--check', '.']],
    ['npx', ['tsc', '--noEmit', '-p', '.']],
    [
      'clang-format',
      [
        '--dry-run',
        '--Werror',
        ...trackedFiles([
          'wasm/*.cpp',
          'wasm/*.hpp',
          'tests/*.cpp',
          'tests/*.hpp',
          'bench/*.cpp',
          'bench/*.hpp',
        ]),
      ],
    ],
  ];
  const results = await Promise.all(checks.map(([cmd, args]) => runCapturedAsync(cmd, args)));
  let passed = 0;
  let failed = 0;
  checks.forEach(([cmd, args], i) => {
    const { status, output } = results[i];
    process.stdout.write(output);
    if (status === 0) passed++;
    else {
      failed++;
      console.error(`lint: ${cmd} ${args[0]} reported problems`);
    }
  });
  return { passed, failed };
}

/**
 * The suites in the order `npm test` runs them. `build` (optional) makes what the tests need and
 * may overlap `npm ci` (test.mjs); `test` runs the tests, with nothing else running beside it.
 * `full` (npm test -- --full) also builds and runs every C++ test program in wasm.
 * @type {Array<{name: string, build?: (o: {full: boolean}) => Promise<void> | void,
 *   test: (o: {full: boolean}) => Promise<object> | object, nodeModules: boolean}>}
 */
export const SUITES = [
  // First: its build needs no node package, so it runs while `npm ci` installs them.
  {
    name: 'native C++ (CTest + GoogleTest)',
    nodeModules: false,
    build: () => buildCore('native'),
    test: () => ctestCounts(ctest(BUILD_DIRS.native, ['-j2'])),
  },
  { name: 'lint (eslint, prettier, tsc, clang-format)', nodeModules: true, test: lint },
  {
    name: 'native C++ under ThreadSanitizer',
    nodeModules: false,
    build: () => buildCore('tsan'),
    test: () => ctestCounts(ctest(BUILD_DIRS.tsan, ['-j2'])),
  },
  {
    name: 'C++ in wasm under Node (GoogleTest, real pthreads)',
    nodeModules: false,
    // The programs labelled wasm-quick (wasm/cmake/testing.cmake), or with --full all of them.
    build: async ({ full }) => {
      if (full) buildCore('em');
      await buildWebModules(full ? [] : ['pipelab_wasm_quick_tests']);
    },
    test: ({ full }) =>
      wasmGtestCounts(
        BUILD_DIRS.em,
        ctest(BUILD_DIRS.em, ['-V', ...(full ? [] : ['-L', 'wasm-quick'])]),
      ),
  },
  { name: 'unit (Vitest)', nodeModules: true, test: () => vitest('unit') },
  {
    name: 'wasm module under Node (Vitest)',
    nodeModules: true,
    // Also when run alone: the Node module and the telemetry layout module it loads.
    build: () => buildWebModules(['pipelab-telemetry-layout']),
    test: () => vitest('wasm'),
  },
  {
    name: 'end-to-end in Chromium (Vitest + playwright-core)',
    nodeModules: true,
    build: async () => {
      // Also when run alone (npm test -- end-to-end): the page must not ship stale wasm modules.
      await buildWebModules();
      run('npx', ['vite', 'build']);
    },
    test: () => vitest('e2e'),
  },
];
