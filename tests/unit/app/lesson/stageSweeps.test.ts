// The presenter's `s` runs the sweep of the newest view on the stage; a withdrawn offer is gone,
// none left means nothing to run.
import { expect, test } from 'vitest';
import { StageSweeps } from '../../../../src/app/lesson/stageSweeps';

test('the newest offer runs; withdrawn offers do not', () => {
  const sweeps = new StageSweeps();
  const log: string[] = [];
  const offer = (name: string) => sweeps.offer(() => log.push(`start ${name}`));
  expect(sweeps.run()).toBe(false);
  const withdrawModel = offer('model');
  const withdrawLayout = offer('layout');
  expect(sweeps.run()).toBe(true);
  withdrawLayout();
  expect(sweeps.run()).toBe(true);
  withdrawModel();
  expect(sweeps.run()).toBe(false);
  expect(log).toEqual(['start layout', 'start model']);
});
