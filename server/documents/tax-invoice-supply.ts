import type { Kysely } from 'kysely';
import { issuerOf, type EntitySchema } from '../../engine/schema/schema-types.ts';
import { taxInvoiceRole } from '../../engine/documents/tax-invoice-role.ts';
import { AppError } from '../errors/app-error.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { siteSettings } from '../settings/site-settings.ts';
import { inBatches } from '../db/batches.ts';
import { linesOf } from './document-lines.ts';

type Row = Record<string, unknown>;
/** Documents as entity name -> ids. */
type Docs = Map<string, Set<number>>;

const MAX_DEPTH = 6;

const add = (docs: Docs, entity: string, id: number) => docs.set(entity, (docs.get(entity) ?? new Set()).add(id));

/** Entities that are tax invoices once posted (schema key `document.taxInvoice` without a role field). */
function invoiceEntities(service: EntityService): EntitySchema[] {
  return service.registry.all().filter((e) => e.document?.taxInvoice && !e.document.taxInvoice.roleField);
}

/** The line ids of these documents. */
async function lineIdsOf(k: Kysely<any>, service: EntityService, entity: string, ids: Set<number>): Promise<number[]> {
  const lines = linesOf(service, service.entity(entity));
  const out: number[] = [];
  for (const batch of inBatches([...ids], 1)) out.push(...(await k.selectFrom(lines.entity.name).select('id').where(lines.parentField, 'in', batch).execute()).map((r) => Number(r.id)));
  return out;
}

/** The documents the lines of these documents were made from (through `document_link`, written at posting). */
async function parentsOf(k: Kysely<any>, service: EntityService, entity: string, ids: Set<number>): Promise<Docs> {
  const out: Docs = new Map();
  const lineIds = await lineIdsOf(k, service, entity, ids);
  const links: Row[] = [];
  for (const batch of inBatches(lineIds, 1)) links.push(...await k.selectFrom('document_link').select(['source_entity', 'source_line_id']).where('target_entity', '=', entity).where('target_line_id', 'in', batch).execute());
  return headersOf(k, service, links.map((l) => ({ entity: String(l.source_entity), lineId: Number(l.source_line_id) })), out);
}

async function headersOf(k: Kysely<any>, service: EntityService, lines: { entity: string; lineId: number }[], out: Docs): Promise<Docs> {
  for (const entity of new Set(lines.map((l) => l.entity))) {
    const src = linesOf(service, service.entity(entity));
    const ids = [...new Set(lines.filter((l) => l.entity === entity).map((l) => l.lineId))];
    for (const batch of inBatches(ids, 1)) {
      for (const r of await k.selectFrom(src.entity.name).select(src.parentField).where('id', 'in', batch).execute()) add(out, entity, Number(r[src.parentField]));
    }
  }
  return out;
}

/** A posted tax invoice (any entity of `invoiceEntities`) in `docs`, or made from any line of them, or named by a line link: its number. */
async function invoiceAmong(k: Kysely<any>, service: EntityService, docs: Docs): Promise<string | null> {
  const invoices = invoiceEntities(service);
  for (const [entity, ids] of docs) {
    const schema = service.entity(entity);
    const inv = invoices.find((i) => i.name === entity);
    if (inv) {
      const state = inv.workflow?.field ?? 'status';
      const row = await k.selectFrom(entity).select([inv.titleField]).where('id', 'in', [...ids]).where(state, '=', postedState(inv)).executeTakeFirst();
      if (row) return String(row[inv.titleField]);
      continue;
    }
    if (!schema.document?.lines) continue;
    const lines = linesOf(service, schema);
    const lineIds = await lineIdsOf(k, service, entity, ids);
    for (const target of invoices) {
      for (const batch of inBatches(lineIds, 1)) {
        const hit = await k.selectFrom('document_link').select('target_line_id').where('source_entity', '=', entity).where('target_entity', '=', target.name).where('source_line_id', 'in', batch).executeTakeFirst();
        if (hit) return numberOfLine(k, service, target, Number(hit.target_line_id));
      }
    }
    // a line that names a tax invoice by a link (a bill line's tax_invoice_id)
    for (const [name, f] of Object.entries(lines.entity.fields)) {
      const target = invoices.find((i) => f.type === 'link' && f.entity === i.name);
      if (!target) continue;
      for (const batch of inBatches([...ids], 1)) {
        const hit = await k.selectFrom(`${lines.entity.name} as l`).innerJoin(`${target.name} as t`, 't.id', `l.${name}`).select(`t.${target.titleField} as no`)
          .where(`l.${lines.parentField}`, 'in', batch).where(`t.${target.workflow?.field ?? 'status'}`, '=', postedState(target)).executeTakeFirst();
        if (hit) return String(hit.no);
      }
    }
  }
  return null;
}

function postedState(entity: EntitySchema): string {
  const post = entity.document?.postAction ?? 'approve';
  return entity.workflow?.transitions.find((t) => t.action === post)?.to ?? 'issued';
}

async function numberOfLine(k: Kysely<any>, service: EntityService, entity: EntitySchema, lineId: number): Promise<string> {
  const lines = linesOf(service, entity);
  const row = await k.selectFrom(`${lines.entity.name} as l`).innerJoin(`${entity.name} as h`, 'h.id', `l.${lines.parentField}`).select(`h.${entity.titleField} as no`).where('l.id', '=', lineId).executeTakeFirst();
  return String(row?.no ?? '');
}

/**
 * The tax invoice already issued for the sale a document's lines come from: the documents its lines were made
 * from, and theirs, up to the order (a receipt from a bill from an order), each checked for a posted tax invoice
 * made from it or named by its lines. Its number, or null when the sale has none.
 */
export async function saleTaxInvoice(k: Kysely<any>, service: EntityService, entity: EntitySchema, after: Row): Promise<string | null> {
  const lines = linesOf(service, entity);
  const from = entity.document?.from ?? [];
  const first: { entity: string; lineId: number }[] = [];
  for (const l of (after[lines.field] as Row[] | undefined) ?? []) {
    if (l.source_line_id === null || l.source_line_id === undefined) continue;
    const spec = from.length === 1 ? from[0] : from.find((f) => f.source === l.source_entity);
    if (spec) first.push({ entity: spec.source, lineId: Number(l.source_line_id) });
  }
  let level = await headersOf(k, service, first, new Map());
  // its own lines may name a tax invoice too
  const self = await invoiceAmongLines(k, service, entity, after);
  if (self) return self;
  const seen = new Set<string>();
  for (let depth = 0; depth < MAX_DEPTH && level.size; depth++) {
    const found = await invoiceAmong(k, service, level);
    if (found) return found;
    const next: Docs = new Map();
    for (const [name, ids] of level) {
      const fresh = new Set([...ids].filter((id) => !seen.has(`${name}:${id}`)));
      fresh.forEach((id) => seen.add(`${name}:${id}`));
      if (!fresh.size || !service.entity(name).document?.lines) continue;
      for (const [p, pids] of await parentsOf(k, service, name, fresh)) pids.forEach((id) => add(next, p, id));
    }
    level = next;
  }
  return null;
}

async function invoiceAmongLines(k: Kysely<any>, service: EntityService, entity: EntitySchema, after: Row): Promise<string | null> {
  const lines = linesOf(service, entity);
  for (const target of invoiceEntities(service)) {
    for (const [name, f] of Object.entries(lines.entity.fields)) {
      if (f.type !== 'link' || f.entity !== target.name) continue;
      const ids = ((after[lines.field] as Row[] | undefined) ?? []).map((l) => l[name]).filter((v) => v !== null && v !== undefined).map(Number);
      if (!ids.length) continue;
      const hit = await k.selectFrom(target.name).select(target.titleField).where('id', 'in', ids).where(target.workflow?.field ?? 'status', '=', postedState(target)).executeTakeFirst();
      if (hit) return String(hit[target.titleField]);
    }
  }
  return null;
}

/**
 * A posted document with a role field (a receipt) that serves as a tax invoice and was made, directly or through
 * other documents (a bill), from these documents: its number, or null. A tax invoice for such a sale would be
 * its second one.
 */
export async function roleInvoiceBelow(k: Kysely<any>, service: EntityService, docs: Docs): Promise<string | null> {
  let level = docs;
  for (let depth = 0; depth < MAX_DEPTH && level.size; depth++) {
    const next: Docs = new Map();
    for (const [name, ids] of level) {
      if (!service.entity(name).document?.lines) continue;
      const lineIds = await lineIdsOf(k, service, name, ids);
      const links: Row[] = [];
      for (const batch of inBatches(lineIds, 1)) links.push(...await k.selectFrom('document_link').select(['target_entity', 'target_line_id']).where('source_entity', '=', name).where('source_line_id', 'in', batch).execute());
      await headersOf(k, service, links.map((l) => ({ entity: String(l.target_entity), lineId: Number(l.target_line_id) })), next);
    }
    for (const [name, ids] of next) {
      const schema = service.entity(name);
      const role = schema.document?.taxInvoice?.roleField;
      if (!role) continue;
      const hit = await k.selectFrom(name).select(schema.titleField).where('id', 'in', [...ids]).where(role, 'in', ['full', 'abbreviated']).where(schema.workflow?.field ?? 'status', '=', postedState(schema)).executeTakeFirst();
      if (hit) return String(hit[schema.titleField]);
    }
    level = next;
  }
  return null;
}

/** The role a document with `document.taxInvoice.roleField` takes when posted: the issuer, the VAT, the site setting and the sale. */
export async function roleAtPosting(k: Kysely<any>, service: EntityService, entity: EntitySchema, after: Row): Promise<'full' | 'abbreviated' | 'none'> {
  const site = await siteSettings(k, service.registry);
  const company = issuerOf(entity);
  const issuer = company && after[company.field] ? await k.selectFrom(company.entity).selectAll().where('id', '=', Number(after[company.field])).executeTakeFirst() : null;
  const mode = taxInvoiceRole(entity, { ...after, [entity.document!.taxInvoice!.roleField!]: null }, issuer, site.tax_invoice);
  if (!mode) return 'none';
  return (await saleTaxInvoice(k, service, entity, after)) ? 'none' : mode;
}

/**
 * Schema key `document.taxInvoice` on the server: a document with a role field takes its role when posted, once;
 * a tax invoice is refused (409 ALREADY_TAX_INVOICED) when a document made from its sources already serves as
 * the sale's tax invoice (docs/documents.md, "One tax invoice per supply").
 */
export function installTaxInvoiceSupply(service: EntityService): void {
  service.onAction(async (trx, e: ActionEvent) => {
    const spec = e.entity.document!.taxInvoice!;
    if (e.action !== (e.entity.document!.postAction ?? 'approve')) return;
    if (spec.roleField) {
      const role = await roleAtPosting(trx, service, e.entity, e.after);
      await trx.updateTable(e.entity.name).set({ [spec.roleField]: role }).where('id', '=', e.id).execute();
      e.after[spec.roleField] = role;
      e.recordWritten = true;
      return;
    }
    const lines = linesOf(service, e.entity);
    const from = e.entity.document!.from ?? [];
    const first: { entity: string; lineId: number }[] = [];
    for (const l of (e.after[lines.field] as Row[] | undefined) ?? []) {
      const src = from.length === 1 ? from[0] : from.find((f) => f.source === l.source_entity);
      if (src && l.source_line_id !== null && l.source_line_id !== undefined) first.push({ entity: src.source, lineId: Number(l.source_line_id) });
    }
    if (!first.length) return;
    const sources = await headersOf(trx, service, first, new Map());
    const other = await roleInvoiceBelow(trx, service, sources);
    if (other) {
      throw new AppError('ALREADY_TAX_INVOICED', `this sale already has a tax invoice: receipt ${other} serves as one (one tax invoice per supply, Revenue Code s. 86/13)`, { document: other }, { number: other });
    }
  }, (entity) => !!entity.document?.taxInvoice);
}
