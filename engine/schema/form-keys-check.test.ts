import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemaSet, SchemaLoadError, type SchemaSource } from './schema-loader.ts';

type Json = Record<string, any>;
const DIR = resolve(import.meta.dirname, '../../schemas');
const files = (): Map<string, Json> => new Map(readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8'))]));

/** Loads the real schemas with one file changed, and answers the problems found (none: []). */
function problemsWith(file: string, change: (e: Json) => void): { file: string; pointer: string; reason: string }[] {
  const set = files();
  change(set.get(file)!);
  const sources: SchemaSource[] = [...set].map(([f, e]) => ({ file: f, text: JSON.stringify(e) }));
  try { loadSchemaSet(sources); return []; } catch (err) { expect(err).toBeInstanceOf(SchemaLoadError); return (err as SchemaLoadError).problems; }
}

describe('the form keys a voucher declares (balance, pickerLabel)', () => {
  it('load as schemas/ declares them', () => {
    expect(problemsWith('journal_entry.json', () => {})).toEqual([]);
    expect(files().get('journal_entry.json')!.fields.items.balance).toEqual({ debit: 'debit', credit: 'credit' });
  });

  it('name money fields of the lines, and fields of a link\'s target', () => {
    expect(problemsWith('journal_entry.json', (e) => { e.fields.items.balance.credit = 'description'; })).toContainEqual(expect.objectContaining({ pointer: '/fields/items/balance/credit' }));
    expect(problemsWith('journal_entry.json', (e) => { e.fields.memo.balance = { debit: 'debit', credit: 'credit' }; })).toContainEqual(expect.objectContaining({ pointer: '/fields/memo/balance' }));
    expect(problemsWith('journal_entry_item.json', (e) => { e.fields.account_id.pickerLabel = ['code', 'nope']; })).toContainEqual(expect.objectContaining({ pointer: '/fields/account_id/pickerLabel' }));
  });
});
