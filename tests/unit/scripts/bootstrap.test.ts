// The bootstrap's decision: install Debian packages where it can, otherwise one message naming
// every missing tool and its package (emsdk for macOS and Windows).
import { describe, expect, test } from 'vitest';
import { NEEDS, planTools } from '../../../scripts/bootstrap.mjs';

describe('planTools', () => {
  test('nothing missing: nothing to do', () => {
    expect(planTools([], { isDebian: false, isRoot: false })).toEqual({ install: [] });
  });

  test('Debian as root: installs every package of the missing tools, once each', () => {
    expect(
      planTools(['emscripten', 'googletest', 'chromium'], { isDebian: true, isRoot: true }),
    ).toEqual({
      install: ['emscripten', 'googletest', 'libgtest-dev', 'chromium'],
    });
  });

  test('not Debian: one message listing each missing tool, emsdk included', () => {
    const plan = planTools(['emscripten', 'chromium'], { isDebian: false, isRoot: true });
    expect('error' in plan && plan.error).toMatch(
      /cannot install them itself \(this is not a Debian system\)/,
    );
    expect('error' in plan && plan.error).toMatch(/Emscripten SDK \(emsdk/);
    expect('error' in plan && plan.error).toMatch(/Chromium/);
  });

  test('Debian but not root: says so', () => {
    const plan = planTools(['cmake'], { isDebian: true, isRoot: false });
    expect('error' in plan && plan.error).toMatch(/this process is not root/);
  });

  test('npm test needs everything npm start needs', () => {
    for (const tool of NEEDS.start) expect(NEEDS.test).toContain(tool);
  });
});
