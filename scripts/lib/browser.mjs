// Launches Debian's Chromium through playwright-core (never a downloaded browser) with the flags
// that work on a closed network: in a fresh profile (launchBrowser), or as one browser server whose
// clients take fresh contexts (launchChromiumServer, sharedContext: the e2e suite's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../bootstrap.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The window size every page starts at. */
const VIEWPORT = { width: 1100, height: 900 };

/** Returns a persistent context in a throwaway profile; close() also deletes the profile.
 * `extraArgs`: more Chromium flags (e.g. a Blink feature a test needs). */
export async function launchBrowser(extraArgs = []) {
  const profile = mkdtempSync(join(tmpdir(), 'pipelab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: VIEWPORT,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** One Chromium as a server (Playwright's), for a test runner's whole run: its clients connect to
 * wsEndpoint() and each takes fresh contexts (sharedContext); close() ends it. */
export function launchChromiumServer() {
  return chromium.launchServer({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** This process's connection to the Chromium server at each endpoint.
 * @type {Map<string, Promise<import('playwright-core').Browser>>} */
const connections = new Map();

/**
 * A fresh context (its own cookies, storage, service workers, cache: as good as a new profile) of
 * the Chromium server at `wsEndpoint`; close() closes the context only. The e2e files used to
 * launch a Chromium per harness: 27 launches a run, about a second of CPU and two of wall each.
 */
export async function sharedContext(wsEndpoint) {
  if (!connections.has(wsEndpoint)) connections.set(wsEndpoint, chromium.connect(wsEndpoint));
  const context = await (await connections.get(wsEndpoint)).newContext({ viewport: VIEWPORT });
  return {
    context,
    async close() {
      await context.close();
    },
  };
}
