// A bad spec never crashes or hangs the shipped module: fuzzed specs (tests/unit/spec/specFuzz.ts —
// good specs mutated, JSON text edited byte by byte) go straight to pl_pipeline_create, as a page
// could send them. Each is refused with a message (-1, pl_last_error naming the field) or built;
// a built one starts, is cancelled, and every thread exits — after the service in hand, which may
// be a spec's longest, 1 s of busy work (several on a loaded machine). A trap or an exception from
// the module fails the test; so does a run that will not stop. The native fuzzer runs accepted specs to the
// end (tests/native/pipeline/spec_fuzz_test.cpp).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { whenPipelineFinished } from '../../src/engine/pipeline/wasmPipeline';
import { withCString, type PipelabModule } from '../../src/engine/wasmExports';
import { FUZZ_RUNS, FUZZ_SEED, mutatedSpec, mutatedText } from '../unit/spec/specFuzz';
import { loadNodeModule, terminateThreads, waitFor } from './nodeModule';

let mod: PipelabModule;
beforeAll(async () => {
  mod = await loadNodeModule(4);
});
afterAll(() => terminateThreads(mod));

let built = 0;

async function createStartCancel(text: string): Promise<void> {
  const status = withCString(mod, text, (ptr) => mod._pl_pipeline_create(ptr));
  if (status !== 0) {
    expect(status).toBe(-1);
    expect(mod.UTF8ToString(mod._pl_last_error()).length, text).toBeGreaterThan(0);
    return;
  }
  built++;
  expect(mod._pl_pipeline_start(), text).toBe(0);
  mod._pl_pipeline_request_cancel();
  await waitFor(() => mod._pl_pipeline_finished() === 1, 60_000, `the threads of ${text}`);
  await whenPipelineFinished(mod);
}

test('mutated specs and edited JSON text: refused with a message, or built and stopped', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        mutatedSpec.map((doc) => JSON.stringify(doc)),
        mutatedText,
      ),
      (text) => createStartCancel(text),
    ),
    { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
  );
  expect(built, 'some fuzzed specs are good ones').toBeGreaterThan(0);
}, 600_000);
