/**
 * Issue 52 §1: a voucher typed by hand (ใบสำคัญทั่วไป) shows no source document nor reversal, which mean nothing on it;
 * an entry a document wrote shows them, read-only (schemas/journal_entry.json's visibleIf, evaluated as the form does).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { compileConditions } from '../../renderer/form-model.ts';

const entry = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../schemas/journal_entry.json'), 'utf8')) as EntitySchema;
const AUTOMATIC = ['source_entity', 'source_doc_no', 'reverses_id'];

describe('the journal voucher form\'s source fields', () => {
  const conditions = compileConditions(entry, (n) => (n === entry.name ? entry : undefined));
  const shown = (values: Record<string, unknown>) => Object.keys(entry.fields).filter((f) => conditions.visible(f, values));

  it('hides the source and the reversal on a voucher typed by hand, new or stored', () => {
    for (const manual of [{}, { source_entity: null, source_id: null, source_doc_no: null, reverses_id: null }, { source_entity: '' }]) {
      expect(shown(manual).filter((f) => AUTOMATIC.includes(f))).toEqual([]);
    }
    expect(shown({})).toEqual(expect.arrayContaining(['doc_no', 'doc_date', 'journal', 'memo', 'items']));
  });

  it('shows them, read-only, on an entry a document wrote, and the reversal on a reversing entry', () => {
    const automatic = { source_entity: 'tax_invoice', source_id: 12, source_doc_no: 'TPT-IV202611-00012', reverses_id: null };
    expect(shown(automatic).filter((f) => AUTOMATIC.includes(f))).toEqual(['source_entity', 'source_doc_no']);
    expect(shown({ ...automatic, reverses_id: 40 }).filter((f) => AUTOMATIC.includes(f))).toEqual(AUTOMATIC);
    for (const f of [...AUTOMATIC, 'source_id']) expect(entry.fields[f]!.readOnly, f).toBe(true);
  });
});
