// One cold page load in Chromium, measured as a visitor meets it: a fresh browser context (empty
// HTTP cache, no service worker, no compiled-code cache), optionally the mobile throttling
// Lighthouse uses (Chrome DevTools Protocol: 150 ms round trip, 1.6 Mbps down, 750 kbps up, the
// CPU slowed 4×), then the page's largest contentful paint, the moment its first control answers,
// and what crossed the network (compressed bytes, as Chromium counts them on the wire, and
// requests) up to that moment and until the page settled.

/** Lighthouse's mobile profile ("Slow 4G"), as DevTools applies it. */
export const MOBILE = {
  latencyMs: 150,
  downloadBps: 1.6e6,
  uploadBps: 750e3,
  cpuSlowdown: 4,
  viewport: { width: 412, height: 823 },
};
/** Unthrottled: a laptop's viewport (the site's e2e size), the machine's own network and CPU. */
export const DESKTOP = { viewport: { width: 1280, height: 720 } };

/** After the first control answers, how long the page is watched for a later, larger paint and
 * the requests the page makes once it can be used (wall time: CPU throttling slows it too). */
const SETTLE_MS = 1500;
const TIMEOUT_MS = 60_000;

/** Runs in the page before its own scripts: keeps the last LCP candidate and the first moment
 * `selector` matches (checked on every DOM change, so an attribute such as disabled counts). */
function observe(selector) {
  const state = { lcpMs: null, readyMs: null, lcpElement: null };
  window.__pipelabLoad = state;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      state.lcpMs = entry.startTime;
      const el = entry.element;
      state.lcpElement = el
        ? `${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ''}`
        : null;
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    if (state.readyMs === null && document.querySelector(selector)) {
      state.readyMs = performance.now();
      watcher.disconnect();
    }
  };
  const watcher = new MutationObserver(check);
  watcher.observe(document, { subtree: true, childList: true, attributes: true });
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {{url: string, ready: string, throttled: boolean}} load
 * @returns {Promise<{lcp_ms: number, ready_ms: number, lcp_element: string|null, kb: number,
 *   requests: number, js_kb: number, kb_settled: number, requests_settled: number,
 *   missing: boolean}>}  kb/requests/js_kb: what the page had fetched (or was fetching) when its
 *   first control answered; *_settled: by the end of the watch. missing: the page said
 *   "No such page" (a route the app does not have).
 */
export async function measureLoad(browser, { url, ready, throttled, debug = false }) {
  const profile = throttled ? MOBILE : DESKTOP;
  const context = await browser.newContext({ viewport: profile.viewport });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (throttled) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: MOBILE.latencyMs,
        downloadThroughput: MOBILE.downloadBps / 8,
        uploadThroughput: MOBILE.uploadBps / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
    }
    /** requestId → {type, sentAt (CDP seconds), bytes (when finished)} */
    const requests = new Map();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (!requests.has(e.requestId))
        requests.set(e.requestId, { url: e.request.url, type: e.type, sentAt: e.timestamp });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { bytes: e.encodedDataLength, doneAt: e.timestamp });
    });
    cdp.on('Network.loadingFailed', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { bytes: 0, doneAt: e.timestamp });
    });
    await page.addInitScript(observe, ready);
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    const missing = await Promise.race([
      page
        .waitForFunction(() => window.__pipelabLoad?.readyMs !== null, null, {
          timeout: TIMEOUT_MS,
          polling: 50,
        })
        .then(() => false),
      page.waitForSelector('[data-testid=no-such-page]', { timeout: TIMEOUT_MS }).then(() => true),
    ]);
    if (missing) return { missing: true };
    await page.waitForTimeout(SETTLE_MS);
    const state = await page.evaluate(() => window.__pipelabLoad);
    const all = [...requests.values()];
    const navigation = all.find((r) => r.type === 'Document');
    // Requests sent before the first control answered: sentAt is CDP seconds since an epoch of
    // the browser's, so measure from the document request by the page's own ready time.
    const readyAt = navigation.sentAt + state.readyMs / 1000;
    const early = all.filter((r) => r.sentAt <= readyAt);
    const kb = (rows) => rows.reduce((a, r) => a + (r.bytes ?? 0), 0) / 1024;
    return {
      missing: false,
      lcp_ms: state.lcpMs,
      ready_ms: state.readyMs,
      lcp_element: state.lcpElement,
      kb: kb(early),
      requests: early.length,
      js_kb: kb(early.filter((r) => r.type === 'Script')),
      kb_settled: kb(all),
      requests_settled: all.length,
      ...(debug
        ? {
            timeline: all.map(
              (r) =>
                `${Math.round((r.sentAt - navigation.sentAt) * 1000)}..${Math.round(((r.doneAt ?? NaN) - navigation.sentAt) * 1000)} ms ${Math.round((r.bytes ?? 0) / 1024)} KB ${r.type} ${r.url.replace(/^.*\/\/[^/]+/, '')}`,
            ),
          }
        : {}),
    };
  } finally {
    await context.close();
  }
}
