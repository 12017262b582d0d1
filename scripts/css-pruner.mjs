// The web build's CSS pruning (scripts/web-build.mjs runs it after Vite); plain JavaScript, so npm start runs it before anything is compiled.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written into web/dist: the icon names the schema files used when the CSS was pruned. */
export const SCHEMA_ICONS_FILE = '.schema-icons';

/** Icon classes (pi-…) that schema files or server code name (menus the server builds); no bundle contains them. */
/** @param {string} root @returns {string[]} */
export function schemaIcons(root) {
  const icons = new Set();
  /** @param {string} dir @param {RegExp} ext */
  const scan = (dir, ext) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) scan(path, ext);
      else if (ext.test(entry.name)) for (const m of readFileSync(path, 'utf8').matchAll(/\bpi-[a-z0-9-]+/g)) icons.add(m[0]);
    }
  };
  scan(join(root, 'schemas'), /\.json$/);
  scan(join(root, 'server'), /\.ts$/);
  return [...icons].sort();
}

/** True when the schema files name an icon that the pruned CSS of this build may lack. */
/** @param {string} root @param {string} dist @returns {boolean} */
export function schemaIconsChanged(root, dist) {
  const file = join(dist, SCHEMA_ICONS_FILE);
  if (!existsSync(file)) return true;
  return readFileSync(file, 'utf8') !== schemaIcons(root).join('\n');
}

/**
 * Class prefixes that code completes at run time (`p-button-${severity}`,
 * "p-toast-".concat(position)): every rule naming such a class is kept.
 */
/** @param {string} js @returns {RegExp[]} */
function dynamicPrefixes(js) {
  const found = new Set();
  for (const m of js.matchAll(/\b(pi?-[a-z0-9]+(?:-[a-z0-9]+)*-)(?:\$\{|["'`]\s*\.concat\(|["'`]\s*\+)/g)) {
    // a bare "p-" would keep everything; a component prefix is at least "p-xxx-"
    if (m[1].length >= 6) found.add(m[1]);
  }
  return [...found].map((p) => new RegExp(p.replace(/[-]/g, '\\-')));
}

/** @param {string} dir @param {string} ext @returns {string[]} */
function files(dir, ext) {
  const out = [];
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) out.push(...files(path, ext));
    else if (name.name.endsWith(ext)) out.push(path);
  }
  return out;
}

/**
 * The UI kit's theme styles every PrimeReact component (about 220 KB) and
 * PrimeIcons every icon. After Vite has built web/dist, this keeps only the
 * rules whose classes the built code (or a schema file's icon) names, so a
 * component or icon the app never uses costs nothing. Rules of the app's own
 * stylesheet survive the same way: their classes are in the code.
 */
/** @param {string} root @param {string} dist @returns {Promise<{ before: number; after: number }>} */
export async function pruneCss(root, dist) {
  const { PurgeCSS } = await import('purgecss');
  const js = files(dist, '.js').map((f) => readFileSync(f, 'utf8'));
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const icons = schemaIcons(root);
  const cssFiles = files(dist, '.css');
  let before = 0;
  let after = 0;
  const results = await new PurgeCSS().purge({
    content: [...js.map((raw) => ({ raw, extension: 'js' })), { raw: html, extension: 'html' }, { raw: icons.join(' '), extension: 'txt' }],
    css: cssFiles,
    safelist: {
      standard: ['html', 'body', '*', /^:root$/, /^::/],
      greedy: dynamicPrefixes(js.join('\n')),
    },
    // variables and @font-face stay: themes read variables indirectly, and fonts load only when used
    variables: false,
    fontFace: false,
    keyframes: false,
  });
  for (const r of results) {
    if (!r.file) continue;
    before += readFileSync(r.file).length;
    writeFileSync(r.file, r.css);
    after += Buffer.byteLength(r.css);
  }
  writeFileSync(join(dist, SCHEMA_ICONS_FILE), icons.join('\n'));
  return { before, after };
}
