/**
 * The loader's checks of tracked statuses (`document.from[].tracks`) and of
 * `document.completeWhen`, on the real schema files with one thing broken.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSchemaSet, SchemaLoadError, type SchemaSource } from './schema-loader.ts';

type Json = Record<string, any>;
const dir = resolve(import.meta.dirname, '../../schemas');

/** Every schema file, with `change` applied to the parsed files it names. */
function sources(change: Record<string, (e: Json) => void> = {}): SchemaSource[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((file) => {
    const text = readFileSync(resolve(dir, file), 'utf8');
    const edit = change[file.replace(/\.json$/, '')];
    if (!edit) return { file, text };
    const e = JSON.parse(text) as Json;
    edit(e);
    return { file, text: JSON.stringify(e) };
  });
}

function problems(change: Record<string, (e: Json) => void>): { file: string; pointer: string; reason: string }[] {
  try {
    loadSchemaSet(sources(change));
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaLoadError);
    return (err as SchemaLoadError).problems;
  }
  throw new Error('expected the schema set to be rejected');
}

const fromOrder = (e: Json) => (e.document.from as Json[]).find((f) => f.source === 'sales_order')!;

describe('tracked statuses in the schema files', () => {
  it('the sales order is completed when delivered and billed: deliveries track one status, tax invoices the other', () => {
    const all = loadSchemaSet(sources());
    const by = (n: string) => all.find((e) => e.name === n)!;
    expect(by('sales_order').document!.completeWhen).toEqual({ delivery_status: 'delivered', billing_status: 'billed' });
    expect(fromOrder(by('delivery_order')).tracks).toEqual({ field: 'delivery_status', partial: 'partly_delivered', complete: 'delivered' });
    expect(fromOrder(by('tax_invoice')).tracks).toEqual({ field: 'billing_status', partial: 'partly_billed', complete: 'billed' });
    // billing notes and receipts ask for money; they do not bill in this sense
    expect(fromOrder(by('billing_note')).tracks).toBeUndefined();
    expect(fromOrder(by('receipt')).tracks).toBeUndefined();
  });

  it('refuses a tracked field that a plain write could set, a value it does not have, or one missing from completeWhen', () => {
    expect(problems({ sales_order: (e) => { delete e.fields.delivery_status.readOnly; } })).toContainEqual(
      { file: 'delivery_order.json', pointer: '/document/from/0/tracks/field', reason: expect.stringMatching(/read-only enum/) });
    expect(problems({ tax_invoice: (e) => { fromOrder(e).tracks.partial = 'half_billed'; } })).toContainEqual(
      { file: 'tax_invoice.json', pointer: '/document/from/0/tracks/partial', reason: expect.stringMatching(/not a value of sales_order.billing_status/) });
    expect(problems({ sales_order: (e) => { delete e.document.completeWhen.billing_status; } })).toContainEqual(
      { file: 'tax_invoice.json', pointer: '/document/from/0/tracks', reason: expect.stringMatching(/completeWhen/) });
    expect(problems({ sales_order: (e) => { e.document.completeWhen.delivery_status = 'shipped'; } })).toContainEqual(
      { file: 'sales_order.json', pointer: '/document/completeWhen/delivery_status', reason: expect.stringMatching(/not a value/) });
    expect(problems({ delivery_order: (e) => { fromOrder(e).tracks.extra = 1; } }).some((p) => p.file === 'delivery_order.json')).toBe(true);
  });
});
