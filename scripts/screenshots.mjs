// `npm run screenshots`: retakes the README's screenshots and the start page's previews from the
// real page — the production build served with the isolation headers, each lesson run on real
// threads in Chromium — so no picture is ever hand-edited. Writes public/screenshots/<page>.png
// (full page, for the README) and public/previews/<page>.jpg (the page's main view, small, for
// the start page's lesson cards). `npm run screenshots -- <name>...` retakes only those pages
// (names as the files: counting-threads, lesson-<slug>); an unknown name is an error naming them.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap } from './bootstrap.mjs';
import { repoRoot, run } from './lib/proc.mjs';
import { serveStatic } from './lib/staticServer.mjs';
import { buildWebModules } from './lib/wasm.mjs';

/** How long a lesson runs before its picture is taken: long enough for every view to fill. */
const RUN_MS = 3000;
/** Lessons whose main view is filled by another button first (it must finish before the run):
 * the queue lesson's race. */
const BEFORE_RUN = { 'lesson-queues-and-cache-lines': { click: 'race-run', until: 'race-stop' } };
const VIEWPORT = { width: 1100, height: 688 };
/** Previews are this wide (pixels): twice the width a card shows them at, for sharp screens. */
const PREVIEW_WIDTH_PX = 560;

/** Lessons whose picture needs another button than Run: which, and what shows it has finished
 * (instead of waiting RUN_MS). The balancing lesson shows both layouts' breakdowns side by side. */
const LESSON_STARTS = {
  'balancing-a-static-pipeline': {
    start: 'run-both',
    done: '[data-testid=breakdown-comparison]',
  },
};

const pages = [
  { name: 'counting-threads', hash: '#/threads', start: 'start', view: '.charts' },
  ...readdirSync(join(repoRoot, 'lessons'))
    .map((f) => /^\d{2}-([a-z0-9-]+)\.md$/.exec(f)?.[1])
    .filter(Boolean)
    .map((slug) => ({
      name: `lesson-${slug}`,
      hash: `#/lessons/${slug}`,
      start: 'run',
      // A lesson's main view: the first component placed after the experiment panel.
      view: '.slot:not(.slot-experiment)',
      ...LESSON_STARTS[slug],
    })),
];

/** The pages named on the command line (all when none is), or an error naming the known ones. */
function chosenPages(names) {
  const known = pages.map((p) => p.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new Error(
      `npm run screenshots: no page ${unknown.join(', ')} (known: ${known.join(', ')})`,
    );
  return names.length ? pages.filter((p) => names.includes(p.name)) : pages;
}

async function main() {
  const chosen = chosenPages(process.argv.slice(2));
  bootstrap('build');
  await buildWebModules();
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
  const shots = join(repoRoot, 'public', 'screenshots');
  const previews = join(repoRoot, 'public', 'previews');
  mkdirSync(shots, { recursive: true });
  mkdirSync(previews, { recursive: true });
  const server = await serveStatic({ root: join(repoRoot, 'dist'), isolationHeaders: true });
  // Only now: browser.mjs needs playwright-core, which the bootstrap installs on a fresh clone.
  const { launchBrowser } = await import('./lib/browser.mjs');
  const browser = await launchBrowser();
  try {
    for (const p of chosen) {
      const page = await browser.context.newPage();
      await page.setViewportSize(VIEWPORT);
      await page.goto(`${server.url}${p.hash}`);
      const before = BEFORE_RUN[p.name];
      if (before) {
        await page.getByTestId(before.click).click();
        await page.getByTestId(before.until).waitFor({ state: 'visible' });
        await page.getByTestId(before.until).waitFor({ state: 'detached', timeout: 180_000 });
      }
      await page.getByTestId(p.start).click();
      if (p.done) await page.waitForSelector(p.done, { timeout: 120_000 });
      await page.waitForTimeout(RUN_MS);
      await page.screenshot({ path: join(shots, `${p.name}.png`), fullPage: true });
      // The preview is the same moment's main view and what follows it, 16:10, drawn small.
      // boundingBox() is relative to the viewport, a full-page clip to the page: add the scroll
      // (a lesson whose race button was clicked first is scrolled down).
      const box = await page.locator(p.view).first().boundingBox();
      const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
      const width = Math.min(box.width, 920);
      const clip = { x: box.x + scroll.x, y: box.y + scroll.y, width, height: (width * 10) / 16 };
      const jpeg = await page.screenshot({ type: 'jpeg', quality: 90, clip, fullPage: true });
      writeFileSync(join(previews, `${p.name}.jpg`), await scaled(page, jpeg));
      await page.close();
      console.log(`[screenshots] ${p.name}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

/** A JPEG scaled down to PREVIEW_WIDTH_PX in the page's own canvas (no image library needed). */
async function scaled(page, jpeg) {
  const dataUrl = await page.evaluate(
    async ({ b64, width }) => {
      const img = new Image();
      img.src = `data:image/jpeg;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      const scale = Math.min(1, width / img.width);
      canvas.width = Math.round(img.width * scale);
      canvas.height = Math.round(img.height * scale);
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL('image/jpeg', 0.8);
    },
    { b64: jpeg.toString('base64'), width: PREVIEW_WIDTH_PX },
  );
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

try {
  await main();
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}
