// The C++ spec parser in the real wasm module, as the tests see it: pl_spec_check's answer as the
// same Outcome the TypeScript runner produces (the normalised spec's text, or path and message).
import { withCString, type PipelabModule } from '../../src/engine/wasmExports';
import type { Outcome } from '../unit/spec/specCases';

const SPEC_PREFIX = '{"spec":';

export function cppSpecCheck(mod: PipelabModule, text: string): Outcome {
  const result = withCString(mod, text, (ptr) => mod.UTF8ToString(mod._pl_spec_check(ptr)));
  if (result.startsWith(SPEC_PREFIX)) return { spec: result.slice(SPEC_PREFIX.length, -1) };
  return (JSON.parse(result) as { error: { path: string; message: string } }).error;
}
