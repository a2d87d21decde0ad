// The C++ parser compiled to wasm against the shared case table: every case's JSON text through
// pl_spec_check (the real Node build of the app module), whose normalised spec must be byte for
// byte JSON.stringify of the table's, and whose error the table's path and full message. The
// same table runs through the TypeScript validator (tests/unit/spec) and native C++.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PipelabModule } from '../../src/engine/wasmExports';
import { loadSpecCases, textOf } from '../unit/spec/specCases';
import { cppSpecCheck } from './specCheck';
import { loadNodeModule, terminateThreads } from './nodeModule';

let mod: PipelabModule;
beforeAll(async () => {
  mod = await loadNodeModule(1);
});
afterAll(() => terminateThreads(mod));

const check = (text: string) => cppSpecCheck(mod, text);

describe('spec case table, C++ in wasm', () => {
  test.each(loadSpecCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const outcome = check(textOf(c));
    if (c.error) expect(outcome).toEqual(c.error);
    else expect(outcome).toEqual({ spec: JSON.stringify(c.spec) });
  });
});
