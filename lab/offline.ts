/**
 * The build step that makes the lab work offline: lab/service-worker.js, written into the build as sw.js with the
 * list of every file the build made (and the page's own address, `./`), under a cache name that changes with them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const SOURCE = new URL('./service-worker.js', import.meta.url);

export function offline(): Plugin {
  return {
    name: 'robotstxt-lab-offline',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = ['./', ...new Set(['index.html', ...Object.keys(bundle)])].map((name) => (name === './' ? name : `./${name}`));
      const version = createHash('sha256')
        .update(
          Object.values(bundle)
            .map((output) => (output.type === 'chunk' ? output.code : String(output.source.length)))
            .join('\0'),
        )
        .digest('hex')
        .slice(0, 16);
      const source = readFileSync(SOURCE, 'utf8')
        .replace('const FILES = FILES_OF_THE_BUILD;', `const FILES = ${JSON.stringify(files)};`)
        .replace('${CACHE_VERSION}', version);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
