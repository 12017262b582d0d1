import type { Kysely } from 'kysely';

/**
 * The one row of a single-row entity (schema `kind: "singleton"`, the site settings), read once
 * per transaction: a posting's rules ask for several of its switches, and what they see must be
 * what the transaction sees. The write events forget it when the transaction writes that entity
 * (write-events.ts), so the rules after such a write judge the row as the write left it.
 */
const perTransaction = new WeakMap<Kysely<any>, Map<string, Promise<unknown>>>();

export function readSingleRowOnce<T>(trx: Kysely<any>, entity: string, read: () => Promise<T>): Promise<T> {
  let reads = perTransaction.get(trx);
  if (!reads) perTransaction.set(trx, (reads = new Map()));
  let kept = reads.get(entity) as Promise<T> | undefined;
  if (!kept) {
    kept = read();
    reads.set(entity, kept);
    // a failed read is not kept: the next rule asks again (and meets the same error, or not)
    kept.catch(() => { if (reads!.get(entity) === kept) reads!.delete(entity); });
  }
  return kept;
}

/** After a transaction writes a single-row entity, its rules read it again. */
export function forgetSingleRows(trx: Kysely<any>, entity: string): void {
  perTransaction.get(trx)?.delete(entity);
}
