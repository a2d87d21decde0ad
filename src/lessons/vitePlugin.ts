// Vite plugin: `import lessons from 'virtual:lessons'` gives the validated lessons of lessons/,
// parsed at build time (a bad lesson fails the build, naming file and field) and reloaded on edit.
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { loadLessons } from './loadLessons';

const ID = 'virtual:lessons';
const RESOLVED = `\0${ID}`;

export function lessonsPlugin(root: string): Plugin {
  const dir = resolve(root, 'lessons');
  return {
    name: 'pipelab-lessons',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      this.addWatchFile(dir);
      return `export default ${JSON.stringify(loadLessons(dir, root))};`;
    },
    configureServer(server) {
      server.watcher.add(dir);
      server.watcher.on('all', (_event, file) => {
        if (!file.startsWith(dir)) return;
        const mod = server.moduleGraph.getModuleById(RESOLVED);
        if (mod) server.moduleGraph.invalidateModule(mod);
        server.ws.send({ type: 'full-reload' });
      });
    },
  };
}
