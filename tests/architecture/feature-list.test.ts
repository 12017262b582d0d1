/**
 * The server is built from one ordered list (issue 46 §1): every feature folder's
 * *-feature.ts is in server/features.ts, once, and app.ts stays a loop over it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../server/features.ts';
import { ROOT } from './import-graph.ts';

describe('the feature list', () => {
  it('holds every feature folder\'s feature once, under a name of its own', async () => {
    const files = readdirSync(join(ROOT, 'server'), { withFileTypes: true }).filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(join(ROOT, 'server', d.name)).filter((f) => f.endsWith('-feature.ts')).map((f) => `${d.name}/${f}`));
    expect(files.length).toBeGreaterThan(10);
    // each file's feature (its exported object with a name) is listed; a feature folder left out of the list would never be built
    const unlisted: string[] = [];
    for (const f of files) {
      const mod = await import(`../../server/${f}`) as Record<string, unknown>;
      if (!Object.values(mod).some((v) => FEATURES.includes(v as never))) unlisted.push(f);
    }
    expect(unlisted).toEqual([]);
    expect(new Set(FEATURES).size).toBe(FEATURES.length);
    expect(new Set(FEATURES.map((f) => f.name)).size).toBe(FEATURES.length);
  });

  it('orders the listeners as data: auth audits first, closed books before posting, stock after documents, barcodes after stock, the ledger after stock', () => {
    const names = FEATURES.flatMap((f) => (f.listeners ?? []).map((l) => `${f.name}: ${l.name}`));
    const at = (n: string) => { const i = names.indexOf(n); expect(i, n).toBeGreaterThanOrEqual(0); return i; };
    expect(at('auth: audit every write')).toBe(0);
    expect(at('documents: closed books')).toBeLessThan(at('documents: cancel guard'));
    expect(at('documents: cancel guard')).toBeLessThan(at('documents: posting'));
    expect(at('documents: posting')).toBeLessThan(at('stock: stock posting'));
    expect(at('stock: stock posting')).toBeLessThan(at('barcodes: scanned packs posted'));
    // a delivery's cost of goods sold is the value the stock posting has just moved
    expect(at('stock: stock posting')).toBeLessThan(at('ledger: journal posting'));
  });

  it('leaves app.ts a loop over the list, under 150 lines', () => {
    const app = readFileSync(join(ROOT, 'server/app.ts'), 'utf8');
    expect(app.split('\n').length).toBeLessThan(150);
    expect(app).toMatch(/for \(const feature of FEATURES\)/);
  });
});
