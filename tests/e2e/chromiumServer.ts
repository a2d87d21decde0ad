// The e2e project's global setup (vitest.config.ts): one Chromium for the whole run, launched in
// Vitest's own process before the first file and closed after the last; every harness takes a
// fresh context of it (harness.ts). Closed here, the browser's CPU time counts in npm test's
// summary as its children's; a browser the test worker left behind would not be counted.
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from '../../scripts/lib/browser.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await launchChromiumServer();
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
