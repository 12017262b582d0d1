import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { systemContext, type RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { isEmpty, resolveDefault } from '../crud/record-values.ts';

type Row = Record<string, unknown>;

/** How fills read other rows. */
export interface FillReader {
  entity(name: string): EntitySchema;
  /** One field of a linked row as the caller may see it; undefined when they may not, or it is not there. */
  read(target: EntitySchema, id: number, field: string): Promise<unknown>;
  /** Reads these rows of one entity in one query, for the line fills that follow. */
  prefetch(target: EntitySchema, ids: number[]): Promise<void>;
  /** A price list's lines (read as the system: the price a customer gets is the document's business, not a screen the caller opens). */
  priceLines(list: EntitySchema, id: number): Promise<Row[]>;
  userId: number | null;
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A value reached from a row by `field` or `link.field`, the link read as the caller. */
async function valueAt(reader: FillReader, entity: EntitySchema, row: Row, path: string): Promise<unknown> {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) return row[head];
  const link = row[head];
  const f = entity.fields[head];
  if (!isId(link) || f?.type !== 'link') return undefined;
  return reader.read(reader.entity(f.entity!), link, tail);
}

/**
 * A value as the field it fills takes it: an enum takes only one of its options, a number as its text (a voucher's
 * rate 3 fills a certificate's rate "3"; its rate 0, no option, fills nothing and the field keeps its default).
 */
function fitted(f: FieldDef, v: unknown): unknown {
  if (f.type !== 'enum' || v === undefined || v === null) return v;
  const text = String(v);
  return (f.options ?? []).some((o) => o.value === text) ? text : undefined;
}

/** "2026-11-02" plus 45 days is "2026-12-17"; undefined unless both are there. */
function plusDays(start: unknown, n: unknown): string | undefined {
  if (typeof start !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(start) || typeof n !== 'number' || !Number.isInteger(n)) return undefined;
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The price list's price for a product and quantity: the line with the greatest least-quantity the quantity reaches. */
async function listPrice(reader: FillReader, header: EntitySchema, merged: Row, via: string, product: number, qty: unknown): Promise<number | undefined> {
  const steps = via.split('.');
  let e = header;
  for (const s of steps.slice(0, -1)) e = reader.entity(e.fields[s]!.entity!);
  const list = reader.entity(e.fields[steps[steps.length - 1]!]!.entity!);
  const listId = await valueAt(reader, header, merged, via);
  if (!isId(listId) || !list.priceList) return undefined;
  const spec = list.priceList;
  const q = qty === undefined || qty === null || qty === '' || !Number.isFinite(Number(qty)) ? 1 : Number(qty);
  let best: { min: number; price: number } | undefined;
  for (const line of await reader.priceLines(list, listId)) {
    if (line[spec.product] !== product || typeof line[spec.price] !== 'number') continue;
    const min = spec.minQty && typeof line[spec.minQty] === 'number' ? (line[spec.minQty] as number) : 0;
    if (min <= q && (!best || min > best.min)) best = { min, price: line[spec.price] as number };
  }
  return best?.price;
}

/**
 * The fills a document declares (fillFrom, fillFrom.priceList, dateFrom), applied to a
 * write's body for the fields it leaves out (absent), where what they follow
 * is in the body or, on an update, changed: a product fills its line's unit and price
 * (the customer's price list first), a customer its contact, salesperson and credit
 * term, and the due date follows the date and the credit term. Values the body sends
 * are kept. The same rules run in the form (POST /api/<entity>/fills).
 */
export async function applyDocumentFills(reader: FillReader, entity: EntitySchema, body: Row, before: Row | null): Promise<void> {
  const merged = (): Row => ({ ...(before ?? {}), ...body });
  // absent only: a null sent on purpose (no buyer tax id on an abbreviated invoice) is the caller's choice
  const missing = (row: Row, name: string) => !(name in row);
  const moved = (name: string) => name in body && (!before || before[name] !== body[name]);
  // header fills, in field order, so a credit term filled from the customer feeds the due date below
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.fillFrom || !missing(body, name) || !moved(f.fillFrom.link)) continue;
    const link = body[f.fillFrom.link];
    if (!isId(link)) continue;
    const v = fitted(f, await reader.read(reader.entity(entity.fields[f.fillFrom.link]!.entity!), link, f.fillFrom.field));
    if (v !== undefined && v !== null) body[name] = v;
  }
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.dateFrom || !missing(body, name)) continue;
    const { date, days } = f.dateFrom;
    const [daysHead] = days.split('.') as [string];
    if (!moved(date) && !moved(daysHead) && before) continue;
    // a stored date that did not follow (typed by hand) is kept when the date or the term moves
    if (before && !isEmpty(before[name]) && before[name] !== plusDays(before[date], await valueAt(reader, entity, before, days))) continue;
    const all = merged();
    const dateField = entity.fields[date]!;
    const start = all[date] ?? (dateField.default !== undefined ? resolveDefault(dateField, reader.userId) : undefined);
    const due = plusDays(start, await valueAt(reader, entity, all, days));
    if (due !== undefined) body[name] = due;
  }
  // line fills: a line sent without its unit or price takes its product's (or the price list's)
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || !Array.isArray(body[name])) continue;
    const child = reader.entity(f.entity!);
    const fills = Object.entries(child.fields).filter(([, g]) => g.fillFrom);
    if (!fills.length) continue;
    // the lines' products in one query, not one per line
    const wanted = new Map<string, Set<number>>();
    for (const line of body[name] as unknown[]) {
      if (!line || typeof line !== 'object' || Array.isArray(line)) continue;
      for (const [field, g] of fills) {
        const id = (line as Row)[g.fillFrom!.link];
        const target = child.fields[g.fillFrom!.link]!.entity!;
        if (missing(line as Row, field) && isId(id)) (wanted.get(target) ?? wanted.set(target, new Set()).get(target)!).add(id);
      }
    }
    for (const [target, ids] of wanted) await reader.prefetch(reader.entity(target), [...ids]);
    for (const line of body[name] as unknown[]) {
      if (!line || typeof line !== 'object' || Array.isArray(line)) continue;
      const row = line as Row;
      for (const [field, g] of fills) {
        const link = row[g.fillFrom!.link];
        if (!missing(row, field) || !isId(link)) continue;
        const fromList = g.fillFrom!.priceList ? await listPrice(reader, entity, merged(), g.fillFrom!.priceList, link, row.qty) : undefined;
        const v = fitted(g, fromList ?? await reader.read(reader.entity(child.fields[g.fillFrom!.link]!.entity!), link, g.fillFrom!.field));
        if (v !== undefined && v !== null) row[field] = v;
      }
    }
  }
}

/** True when the entity or its lines declare any fill the server applies. */
export function hasDocumentFills(entity: EntitySchema, lookup: (n: string) => EntitySchema | undefined): boolean {
  return Object.values(entity.fields).some((f) => f.fillFrom || f.dateFrom
    || (f.type === 'lines' && Object.values(lookup(f.entity!)?.fields ?? {}).some((g) => g.fillFrom)));
}

/** A reader for one write or one form question: each row is read once (a 50-line order of one product reads it once). */
export function fillReader(service: EntityService, ctx: RequestContext): FillReader {
  const rows = new Map<string, Promise<Row | undefined>>();
  const prices = new Map<string, Promise<Row[]>>();
  return {
    entity: (n) => service.entity(n),
    userId: ctx.userId,
    async read(target, id, field) {
      if (!service.policy.canReadField(ctx, target, field, false)) return undefined;
      const key = `${target.name}/${id}`;
      // not there, archived or outside the caller's scope: the same to a fill
      if (!rows.has(key)) rows.set(key, service.get(target.name, id, ctx).catch(() => undefined));
      return (await rows.get(key))?.[field];
    },
    async prefetch(target, ids) {
      const todo = ids.filter((id) => !rows.has(`${target.name}/${id}`));
      if (!todo.length) return;
      const found = (async () => {
        try {
          const out = new Map<number, Row>();
          for (let at = 0; at < todo.length; at += 200) { // a page of a list at most
            const part = todo.slice(at, at + 200);
            const q = service.parseQuery(target, { filter: JSON.stringify({ id: { _in: part } }), limit: String(part.length) }, ctx);
            for (const r of (await service.list(target.name, q, ctx)).rows) out.set(Number(r.id), r);
          }
          return out;
        } catch {
          return new Map<number, Row>(); // the caller may not read them: no fill
        }
      })();
      for (const id of todo) rows.set(`${target.name}/${id}`, found.then((m) => m.get(id)));
      await found;
    },
    priceLines(list, id) {
      const key = `${list.name}/${id}`;
      if (!prices.has(key)) {
        prices.set(key, service.get(list.name, id, systemContext, [['id'], [list.priceList!.lines]])
          .then((row) => (row[list.priceList!.lines] as Row[] | undefined) ?? [], () => []));
      }
      return prices.get(key)!;
    },
  };
}

/** Creates and updates get the fills before they are judged (a line without a price is priced, then validated). */
export function installDocumentFills(service: EntityService): void {
  const fills = (e: EntitySchema) => hasDocumentFills(e, (n) => service.registry.get(n));
  service.onCreateDefaults(async (_k, entity, body, ctx) => {
    if (fills(entity)) await applyDocumentFills(fillReader(service, ctx), entity, body, null);
  });
  service.onUpdateDefaults(async (entity, id, body, ctx) => {
    if (!fills(entity)) return;
    let before: Row;
    try {
      before = await service.get(entity.name, id, ctx);
    } catch {
      return; // the update itself answers the missing or hidden record
    }
    await applyDocumentFills(fillReader(service, ctx), entity, body, before);
  });
}
