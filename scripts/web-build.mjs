// The web app's build (Vite, CSS pruning, brotli and gzip twins) and when it is stale. Plain JavaScript, so
// `npm start` and `npm run build` run it before anything is compiled; the server never imports it (it serves
// web/dist as it finds it), tests and the start scripts do.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { newestMtime } from './build-state.mjs';
import { pruneCss, schemaIconsChanged } from './css-pruner.mjs';

/** Written into web/dist once every built file has its .br and .gz twin. */
const PRECOMPRESSED_MARK = '.precompressed';
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map|ttf|otf|eot|ico)$/;

/**
 * Writes name.br (brotli, quality 11) and name.gz (gzip 9) next to every
 * compressible file that gains from it, so the server sends compressed bytes
 * without compressing on each request (@fastify/static `preCompressed`).
 * @param {string} dir
 * @returns {{ files: number; raw: number; br: number }}
 */
export function precompressDir(dir) {
  let files = 0, raw = 0, br = 0;
  /** @param {string} d */
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const file = join(d, name);
      const st = statSync(file);
      if (st.isDirectory()) { walk(file); continue; }
      if (!COMPRESSIBLE.test(name) || st.size < 512) continue;
      const content = readFileSync(file);
      const b = brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } });
      const g = gzipSync(content, { level: 9 });
      if (b.length < content.length) writeFileSync(`${file}.br`, b);
      if (g.length < content.length) writeFileSync(`${file}.gz`, g);
      files++; raw += content.length; br += b.length;
    }
  };
  walk(dir);
  writeFileSync(join(dir, PRECOMPRESSED_MARK), new Date().toISOString());
  return { files, raw, br };
}

/**
 * True when web/dist/index.html (or its compressed twins) is missing or older than any file of web/src, web/index.html or the Vite config.
 * @param {string} root
 * @returns {Promise<boolean>}
 */
export async function webBuildIsStale(root) {
  const web = join(root, 'web');
  const built = join(web, 'dist', 'index.html');
  if (!existsSync(built) || !existsSync(join(web, 'dist', PRECOMPRESSED_MARK))) return true;
  if (schemaIconsChanged(root, join(web, 'dist'))) return true;
  const builtAt = statSync(built).mtimeMs;
  // the app bundles engine/ (shared code) and the declared screens (schemas/screens) too, and index.html lists the
  // report files' names (schemas/reports: a path not listed is taken for an entity's at once, web/src/core/built-reports.ts)
  // and the create-from screens the entity files declare (schemas/*.json document.from[], web/src/core/built-create-from.ts)
  const sources = Math.max(newestMtime(join(web, 'src')), newestMtime(join(web, 'index.html')), newestMtime(join(web, 'vite.config.ts')), newestMtime(join(web, 'public')),
    newestMtime(join(root, 'engine')), newestMtime(join(root, 'schemas')));
  return sources > builtAt;
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the web app with Vite when the build is missing or stale; returns web/dist.
 * A lock directory keeps two processes (parallel test files) from building at once.
 * @param {string} root
 * @param {(msg: string) => void} [log]
 * @returns {Promise<string>}
 */
export async function ensureWebBuilt(root, log = () => undefined) {
  const dist = join(root, 'web', 'dist');
  if (!(await webBuildIsStale(root))) return dist;
  const lock = join(tmpdir(), `bo-web-build-${createHash('sha1').update(resolve(root)).digest('hex').slice(0, 12)}.lock`);
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // someone else is building; a lock older than 3 minutes is left over from a crash
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > 240_000) throw new Error('timed out waiting for another web build');
      await sleep(250);
    }
  }
  try {
    if (!(await webBuildIsStale(root))) return dist;
    log('building the web app (vite build)…');
    const t0 = Date.now();
    const { build } = await import('vite');
    // a test runner sets NODE_ENV=test, which would give React's development build
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: join(root, 'web', 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    const css = await pruneCss(root, dist);
    const c = precompressDir(dist);
    log(`web app built in ${((Date.now() - t0) / 1000).toFixed(1)} s; unused UI-kit styles pruned (${Math.round(css.before / 1024)} KB → ${Math.round(css.after / 1024)} KB of CSS); ${c.files} files precompressed (${Math.round(c.raw / 1024)} KB → ${Math.round(c.br / 1024)} KB brotli)`);
    return dist;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
