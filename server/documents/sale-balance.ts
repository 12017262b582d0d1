import type { Kysely } from 'kysely';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { inBatches } from '../db/batches.ts';
import { lineCapacities } from './line-capacity.ts';
import { linesOf } from './document-lines.ts';

/**
 * What a sale can still collect is one figure, whatever the path (issue 44 §1, docs/documents.md "One figure
 * per order"). The documents that collect from a source name the same `pool` in their `document.from[]`
 * ("collect": a sales order's billing notes and the receipts made straight from it). Per source line:
 *
 *   open = its part of the total − what every member of the pool took of it
 *                                − what members took of documents made from it that are not members
 *                                  (bills of the order's tax invoices, from the invoice lines)
 *
 * Receipts of a bill count against the bill, which already counts against the order, so an order of
 * 1,070.00 received straight and billed again has nothing left to bill (409 OVER_PROCESSED).
 * Everything is read from `document_link` (written when a document posts, removed when it is cancelled).
 */

/** The entities whose `document.from[]` names `source` in `pool`, in name order. */
export function poolMembers(service: EntityService, source: string, pool: string): string[] {
  return service.registry.all().filter((e) => e.document?.from?.some((f) => f.source === source && f.pool === pool)).map((e) => e.name).sort();
}

const isMember = (service: EntityService, target: string, source: string, pool: string) =>
  Boolean(service.registry.get(target)?.document?.from?.some((f) => f.source === source && f.pool === pool));

/** Whether some document collects from `source` in `pool`. */
const feeds = (service: EntityService, source: string, pool: string) => poolMembers(service, source, pool).length > 0;

export interface PoolFlow {
  /** Satang claimed of each source line (bills and direct receipts, bills of its invoices). */
  claimed: Map<number, number>;
  /** Of that, satang received: what the last members of the chain took (receipts, straight or through bills). */
  received: Map<number, number>;
}

const add = (m: Map<number, number>, k: number, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/** Follows document_link down from the lines of `source` (at most four documents deep) and sums the pool's claims per line. */
export async function poolFlow(k: Kysely<any>, service: EntityService, source: string, pool: string, lineIds: number[]): Promise<PoolFlow> {
  const claimed = new Map<number, number>();
  const received = new Map<number, number>();
  type Step = { source: string; claims: boolean; roots: Map<number, number> };
  let level: Step[] = [{ source, claims: true, roots: new Map(lineIds.map((id) => [id, id])) }];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next = new Map<string, Step>();
    for (const step of level) {
      for (const batch of inBatches([...step.roots.keys()], 1)) {
        const rows = await k.selectFrom('document_link').select(['target_entity', 'target_line_id', 'source_line_id', 'amount'])
          .where('source_entity', '=', step.source).where('source_line_id', 'in', batch).execute();
        for (const r of rows) {
          const target = String(r.target_entity);
          const root = step.roots.get(Number(r.source_line_id))!;
          const member = isMember(service, target, step.source, pool);
          const last = !feeds(service, target, pool);
          if (member && step.claims) add(claimed, root, Number(r.amount));
          if (member && last) add(received, root, Number(r.amount));
          if (last) continue;
          // a member's own collectors (a bill's receipts) are received, not claimed again
          const claims = step.claims && !member;
          const key = `${target}:${claims}`;
          const s = next.get(key) ?? { source: target, claims, roots: new Map<number, number>() };
          s.roots.set(Number(r.target_line_id), root);
          next.set(key, s);
        }
      }
    }
    level = [...next.values()];
  }
  return { claimed, received };
}

/** A line of a document that the pool counts against instead of (as well as) the line itself. */
export interface PoolRoot { source: string; lineId: number }

/**
 * The line each of these lines of `source` was made from, when that document collects in `pool` and `source`
 * is not one of its members: an invoice line's order line (a bill of the invoice is money collected for the order).
 */
export async function poolRoots(k: Kysely<any>, service: EntityService, source: string, pool: string, lineIds: number[]): Promise<Map<number, PoolRoot>> {
  const out = new Map<number, PoolRoot>();
  for (const batch of inBatches(lineIds, 1)) {
    const rows = await k.selectFrom('document_link').select(['target_line_id', 'source_entity', 'source_line_id'])
      .where('target_entity', '=', source).where('target_line_id', 'in', batch).execute();
    for (const r of rows) {
      const up = String(r.source_entity);
      if (feeds(service, up, pool) && !isMember(service, source, up, pool)) out.set(Number(r.target_line_id), { source: up, lineId: Number(r.source_line_id) });
    }
  }
  return out;
}

/** The capacities (satang) of these lines of `source`, read with their documents. */
export async function capacitiesOfLines(k: Kysely<any>, service: EntityService, source: string, lineIds: number[]): Promise<Map<number, number>> {
  const entity = service.entity(source);
  const lines = linesOf(service, entity);
  const heads = new Set<number>();
  for (const batch of inBatches(lineIds, 1)) {
    for (const r of await k.selectFrom(lines.entity.name).select(lines.parentField).where('id', 'in', batch).execute()) heads.add(Number(r[lines.parentField]));
  }
  return lineCapacities(k, service, entity, 'amount', [...heads]);
}

/**
 * What is taken of each source line for a document of `spec`'s pool, so that `cap − taken` is what it may still
 * take: the pool's claims on the line, or more when the line it was made from has less left (an invoice line
 * of an order that was already received in full has nothing left to bill). Null when `spec` has no pool.
 */
export async function poolTaken(k: Kysely<any>, service: EntityService, spec: DocumentSource, caps: Map<number, number>): Promise<Map<number, number> | null> {
  if (!spec.pool) return null;
  const ids = [...caps.keys()];
  const { claimed } = await poolFlow(k, service, spec.source, spec.pool, ids);
  const roots = await poolRoots(k, service, spec.source, spec.pool, ids);
  const out = new Map<number, number>(ids.map((id) => [id, claimed.get(id) ?? 0]));
  for (const up of new Set([...roots.values()].map((r) => r.source))) {
    const mine = [...roots].filter(([, r]) => r.source === up);
    const upIds = mine.map(([, r]) => r.lineId);
    const upCaps = await capacitiesOfLines(k, service, up, upIds);
    const upClaimed = (await poolFlow(k, service, up, spec.pool, upIds)).claimed;
    for (const [id, r] of mine) {
      const upLeft = (upCaps.get(r.lineId) ?? 0) - (upClaimed.get(r.lineId) ?? 0);
      out.set(id, Math.max(out.get(id)!, (caps.get(id) ?? 0) - upLeft));
    }
  }
  return out;
}

export interface SaleBalance {
  /** The document's total, VAT included (satang): the sum of its lines' parts. */
  total: number;
  /** Billed or received straight, or billed through its tax invoices. */
  claimed: number;
  /** Money in (receipts straight from it, or of its bills), tax withheld included. */
  received: number;
  /** What can still be billed or received straight: total − claimed. */
  open: number;
  /** What the customer still owes of it: total − received. */
  due: number;
}

/**
 * The collection figures of one document that others collect from in `pool` (a sales order, "collect"),
 * in satang. Read in the caller's transaction; the caller checks the reader's right to the document.
 */
export async function saleBalance(k: Kysely<any>, service: EntityService, source: string, id: number, pool = 'collect'): Promise<SaleBalance> {
  const caps = await lineCapacities(k, service, service.entity(source), 'amount', [id]);
  const flow = await poolFlow(k, service, source, pool, [...caps.keys()]);
  const sum = (m: Map<number, number>) => [...m.values()].reduce((s, v) => s + v, 0);
  const total = sum(caps);
  const claimed = sum(flow.claimed);
  const received = sum(flow.received);
  return { total, claimed, received, open: Math.max(total - claimed, 0), due: Math.max(total - received, 0) };
}
