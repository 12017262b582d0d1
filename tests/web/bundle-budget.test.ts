import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWebBuilt } from '../../server/web/web-static.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BUDGET = 200 * 1024;

interface ManifestChunk { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }

/** The JavaScript /signin needs: the entry, the sign-in route chunk, and everything they import statically. */
function signinFiles(manifest: Record<string, ManifestChunk>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const c = manifest[key];
    if (!c || files.has(c.file)) return;
    files.add(c.file);
    for (const i of c.imports ?? []) visit(i);
  };
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry)?.[0];
  expect(entry, 'the manifest has an entry').toBeTruthy();
  expect(manifest['src/pages/SignIn.tsx'], 'the sign-in page is its own chunk').toBeTruthy();
  visit(entry!);
  visit('src/pages/SignIn.tsx');
  return [...files].filter((f) => f.endsWith('.js'));
}

describe('bundle budget', () => {
  it('the JavaScript /signin needs is at most 200 KB gzipped', async () => {
    const dist = await ensureWebBuilt(ROOT);
    const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const files = signinFiles(manifest);
    const sizes = files.map((f) => ({ f, gz: gzipSync(readFileSync(join(dist, f)), { level: 9 }).length }));
    const total = sizes.reduce((a, s) => a + s.gz, 0);
    console.log(`[bundle] /signin loads ${files.length} JS files, ${(total / 1024).toFixed(1)} KB gzipped (budget 200 KB)`);
    expect(total).toBeLessThanOrEqual(BUDGET);
    // the heavy parts stay out of the sign-in path
    const heavy = files.filter((f) => /EntityForm|EntityList|AppShell/.test(f));
    expect(heavy).toEqual([]);
  }, 180_000);
});
