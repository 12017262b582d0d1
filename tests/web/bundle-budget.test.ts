import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';
import { startServer, type E2eServer } from '../e2e/e2e-support.ts';

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

/** What the server really sends for a path: status, content-encoding and the bytes on the wire (fetch would decode them). */
async function served(baseUrl: string, path: string, acceptEncoding: string): Promise<{ status: number; encoding: string | null; bytes: number }> {
  const { request } = await import('node:http');
  return new Promise((ok, fail) => {
    const req = request(new URL(path, baseUrl), { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => { bytes += d.length; });
      res.on('end', () => ok({ status: res.statusCode!, encoding: (res.headers['content-encoding'] as string | undefined) ?? null, bytes }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('bundle budget, as served', () => {
  let server: E2eServer;
  let files: string[];
  beforeAll(async () => {
    const dist = await ensureWebBuilt(ROOT);
    const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    files = signinFiles(manifest);
    server = await startServer();
  }, 180_000);
  afterAll(async () => { await server?.close(); });

  it('the JavaScript /signin needs arrives compressed, at most 200 KB on the wire', async () => {
    // what a browser sends: Chromium accepts br over https and localhost; gzip is the fallback every client has
    const br = await Promise.all(files.map((f) => served(server.baseUrl, `/${f}`, 'gzip, deflate, br, zstd')));
    const gz = await Promise.all(files.map((f) => served(server.baseUrl, `/${f}`, 'gzip, deflate')));
    for (const [i, r] of br.entries()) {
      expect(r.status, files[i]).toBe(200);
      expect(r.encoding, files[i]).toBe('br');
    }
    for (const r of gz) expect(r.encoding).toBe('gzip');
    const total = br.reduce((a, r) => a + r.bytes, 0);
    const totalGz = gz.reduce((a, r) => a + r.bytes, 0);
    const raw = files.reduce((a, f) => a + readFileSync(join(ROOT, 'web', 'dist', f)).length, 0);
    console.log(`[bundle] /signin loads ${files.length} JS files: ${(total / 1024).toFixed(1)} KB sent with brotli, ${(totalGz / 1024).toFixed(1)} KB with gzip, ${(raw / 1024).toFixed(1)} KB uncompressed (budget 200 KB)`);
    expect(totalGz).toBeLessThanOrEqual(BUDGET);
    // the heavy parts stay out of the sign-in path
    const heavy = files.filter((f) => /EntityForm|EntityList|AppShell|assets\/(shell|list)-/.test(f));
    expect(heavy).toEqual([]);
  });

  it('the /signin page and its scripts come compressed, and a client without compression still gets them', async () => {
    const page = await served(server.baseUrl, '/signin', 'gzip, br');
    expect(page.status).toBe(200);
    expect(page.encoding).toBe('br');
    const html = await (await fetch(new URL('/signin', server.baseUrl))).text();
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect((await served(server.baseUrl, s, 'gzip, br')).encoding, s).toBe('br');
    const plain = await served(server.baseUrl, scripts[0]!, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.encoding).toBeNull();
  });
});
