/**
 * Words a person reads (issue 38 §9): one Thai name for the supplier across
 * the schemas and the screens' texts, and no developer English inside Thai text.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const schemaTexts = () => readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.json')).map((f) => [`schemas/${f}`, readFileSync(join(root, 'schemas', f), 'utf8')] as const);
function webTexts(): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name) && !/\.test\./.test(e.name)) out.push([p.slice(root.length + 1), readFileSync(p, 'utf8')]);
    }
  };
  walk(join(root, 'web/src'));
  return out;
}

describe('wording', () => {
  it('the supplier is "ผู้ขาย" everywhere, never also "ผู้จำหน่าย"', () => {
    const both = [...schemaTexts(), ...webTexts()].filter(([, text]) => text.includes('ผู้จำหน่าย')).map(([f]) => f);
    expect(both).toEqual([]);
    expect(JSON.parse(readFileSync(join(root, 'schemas/supplier.json'), 'utf8')).label.th).toBe('ผู้ขาย');
  });

  it('Thai texts name no browser API', () => {
    const thaiWithApi = webTexts().flatMap(([f, text]) =>
      [...text.matchAll(/'([^'\n]*[\u0E00-\u0E7F][^'\n]*)'/g)].filter((m) => /BarcodeDetector|MediaDevices|getUserMedia/.test(m[1]!)).map((m) => `${f}: ${m[1]}`));
    expect(thaiWithApi).toEqual([]);
  });

  it('the create-from picker names the source document\'s own party, not always the customer', () => {
    const page = readFileSync(join(root, 'web/src/pages/documents/CreateFromPage.tsx'), 'utf8');
    expect(page).not.toContain("t('create_from.pick_customer')");
    expect(readFileSync(join(root, 'web/src/pages/documents/finance-i18n.ts'), 'utf8')).toContain("['create_from.pick_party', 'เลือก{{party}}'");
  });
});
