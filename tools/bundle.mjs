/**
 * Builds what `npm start` runs: the product's TypeScript bundled by esbuild into plain JavaScript
 * in dist/ (main.js and dns-worker.js), packages left to node_modules. Running plain
 * JavaScript instead of loading TypeScript through tsx saves each process tsx's loader thread and
 * transform service, about 44 MiB resident (measured with Node 20), which is what lets a DNS node
 * fit a small VM (docs/benchmarks.md, "Idle memory").
 *
 * Each source file keeps its own `import.meta.url` (the plugin below writes it in as a constant),
 * so files found relative to a source file (migrations, geo data, the native addon, package.json)
 * resolve as they do under tsx. The bundle is therefore built where it runs: `npm start` and the
 * image's build both build it in place. `__PRODUCT_BUNDLE_DIR__` tells the code it runs bundled
 * (the DNS worker role forks dist/dns-worker.js instead of the .ts entry under tsx).
 *
 * `node tools/bundle.mjs --entry <file.ts> --outdir <dir>` bundles one other entry the same way
 * into <dir> (benchmarks run a DNS node's start as `npm start` runs it: bench/scale-1m.ts).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({ options: { entry: { type: 'string' }, outdir: { type: 'string' } } });
const OUT_DIR = args.outdir !== undefined ? path.resolve(args.outdir) : path.join(ROOT, 'dist');

/** Replaces `import.meta.url` in each source file by that file's URL. */
const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

const built = await build({
  absWorkingDir: ROOT,
  entryPoints:
    args.entry !== undefined
      ? [path.resolve(args.entry)]
      : { main: 'src/apps/main.ts', 'dns-worker': 'src/nodes/dns/dns-worker-entry.ts' },
  outdir: OUT_DIR,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Code a role imports when it starts goes into chunks of its own, loaded only by the roles
  // that run it: a DNS node does not load the platform modules' code (src/apps/node.ts).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  define: { __PRODUCT_BUNDLE_DIR__: JSON.stringify(OUT_DIR) },
  plugins: [sourceUrls],
  logLevel: 'warning',
  metafile: true,
});

// Chunks of earlier builds (their names carry a hash of their content) would pile up: only this
// build's stay. Processes started from the same sources write the same names, so none is removed
// from under a process that is still starting.
const CHUNKS = path.join(OUT_DIR, 'chunks');
const written = new Set(Object.keys(built.metafile.outputs).map((f) => path.resolve(ROOT, f)));
for (const name of await readdir(CHUNKS).catch(() => [])) {
  const file = path.join(CHUNKS, name);
  if (!written.has(file)) await rm(file, { force: true });
}
