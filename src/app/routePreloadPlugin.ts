// Vite plugin (build only): a lesson opened cold fetches its page's chunks while the entry is still
// downloading and starting React, instead of after. The build writes a small script,
// assets/route-preload-<hash>.js, that index.html loads `async` before the entry: it reads the
// hash route and adds modulepreload links for that lesson's chunks (the lesson page, its data, the
// components down to its experiment panel: scripts/lib/routeModules.mjs) and preload links for their
// stylesheets. A plain same-origin script, so a strict CSP (script-src 'self') allows it; a route it
// does not know preloads nothing. On a phone's network it moved those requests ~0.7 s earlier.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OutputAsset, OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import {
  componentFiles,
  criticalComponents,
  LESSON_PAGE,
  lessonDataId,
  PRESENT_PAGE,
  REGISTRY,
} from '../../scripts/lib/routeModules.mjs';

/** The script: `R` maps a slug to [lesson route's files, presenter's files], relative to itself. */
export function preloadScript(routes: Record<string, [string[], string[]]>): string {
  return `(() => {
  const R = ${JSON.stringify(routes)};
  const m = /^#\\/(lessons|present)\\/([a-z0-9-]+)/.exec(location.hash);
  const files = m && R[m[2]] && R[m[2]][m[1] === 'lessons' ? 0 : 1];
  if (!files) return;
  const here = document.currentScript.src;
  for (const f of files) {
    const link = document.createElement('link');
    if (f.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
      link.crossOrigin = '';
    }
    link.href = new URL(f, here).href;
    document.head.appendChild(link);
  }
})();
`;
}

export function routePreloadPlugin(root: string, lessonsDir = resolve(root, 'lessons')): Plugin {
  return {
    name: 'pipelab-route-preload',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle: OutputBundle) {
        const html = bundle['index.html'] as OutputAsset | undefined;
        if (!html) return;
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const byModule = new Map<string, OutputChunk>();
        for (const c of chunks) if (c.facadeModuleId) byModule.set(c.facadeModuleId, c);
        const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('index.html'));
        /** A module's chunk and every chunk it imports statically (not the entry: it is loading),
         * then their stylesheets; file names relative to assets/. */
        const filesOf = (ids: string[]) => {
          const js = new Set<string>();
          const css = new Set<string>();
          const visit = (c: OutputChunk) => {
            if (c === entry || js.has(c.fileName)) return;
            js.add(c.fileName);
            for (const f of c.viteMetadata?.importedCss ?? []) css.add(f);
            for (const f of c.imports) visit(byFile.get(f)!);
          };
          for (const id of ids) {
            const c = byModule.get(id);
            if (!c) this.error(`route preload: no chunk has ${id} as its entry`);
            visit(c);
          }
          return [...js, ...css].map((f) => f.replace(/^assets\//, ''));
        };
        const registry = componentFiles(readFileSync(resolve(root, REGISTRY), 'utf8'));
        const moduleOf = (name: string) => resolve(root, registry.get(name)!);
        const routes: Record<string, [string[], string[]]> = {};
        for (const file of readdirSync(lessonsDir).sort()) {
          const m = /^\d+-([a-z0-9-]+)\.md$/.exec(file);
          if (!m) continue;
          const markdown = readFileSync(resolve(lessonsDir, file), 'utf8');
          const data = `\0${lessonDataId(m[1])}`;
          const all = [
            ...new Set([...markdown.matchAll(/^::([a-z][a-z-]*)/gm)].map((x) => x[1])),
          ].filter((n) => registry.has(n));
          routes[m[1]] = [
            filesOf([
              resolve(root, LESSON_PAGE),
              data,
              ...criticalComponents(markdown).map(moduleOf),
            ]),
            filesOf([resolve(root, PRESENT_PAGE), data, ...all.map(moduleOf)]),
          ];
        }
        const ref = this.emitFile({
          type: 'asset',
          name: 'route-preload.js',
          source: preloadScript(routes),
        });
        const fileName = this.getFileName(ref);
        const source = String(html.source);
        const tag = /<script type="module" crossorigin src="([^"]*?)assets\//.exec(source);
        if (!tag) this.error('route preload: index.html has no module script under assets/');
        html.source = source.replace(
          tag[0],
          `<script async src="${tag[1]}${fileName}"></script>\n    ${tag[0]}`,
        );
      },
    },
  };
}
