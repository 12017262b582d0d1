import type { Kysely } from 'kysely';
import type { NamedRider } from '../db/riding-statements.ts';

/** The note of a reversal's movements (a cancelled document's stock put back), which a document's own value leaves out. */
export const REVERSAL_NOTE = 'reversal';

/** The value (satang) a document's own movements moved in one transaction, per direction. */
export interface DocumentMoved { in: number; out: number }

/** One stored movement as this record needs it. */
export interface MovedValue { docEntity: string | null; docId: number | null; direction: 'in' | 'out'; note?: string | null; value: number }

/** Per Kysely transaction object (the one every listener of a write is handed), per document. */
const byTransaction = new WeakMap<object, Map<string, DocumentMoved>>();
const keyOf = (entity: string, id: number) => `${entity}\u0000${id}`;

/**
 * Notes what the stock ledger has just stored for documents (writeMovements, the one path of every stock change),
 * reversals left out. A listener that runs after the stock statements in the same transaction (the general
 * ledger's entry of a posting: its inventory lines are the value the stock ledger moved) takes the value from
 * here instead of reading the movements back while the posting holds the balance rows others queue for.
 */
export function noteMoved(trx: Kysely<any>, movements: MovedValue[]): void {
  let docs = byTransaction.get(trx);
  for (const m of movements) {
    if (m.docEntity === null || m.docId === null || m.note === REVERSAL_NOTE) continue;
    if (!docs) byTransaction.set(trx, (docs = new Map()));
    const key = keyOf(m.docEntity, m.docId);
    const d = docs.get(key) ?? { in: 0, out: 0 };
    d[m.direction] += m.value;
    docs.set(key, d);
  }
}

/**
 * What the document's own movements (not reversals) written in this transaction moved, or undefined when this
 * transaction wrote none: a posting writes all of its document's movements, so then the caller reads the ledger.
 */
export function movedInTransaction(trx: Kysely<any>, docEntity: string, docId: number): DocumentMoved | undefined {
  return byTransaction.get(trx)?.get(keyOf(docEntity, docId));
}

/**
 * A write of a later step of the transaction that goes out with the statement in which the stock ledger writes a
 * document's movements (PostgreSQL): the general ledger's entry of a posting, whose stock amounts are the values
 * that statement stores. `make` runs once those values are noted (movedInTransaction answers them) and before the
 * statement is sent; `rode` gets the scalars the statement answered for it. Sent with the balance rows, the entry
 * adds no round trip to the time a posting holds the rows other postings queue for (issue 49).
 */
export interface MovementRider {
  make(): Promise<NamedRider[]>;
  rode(reads: Record<string, unknown>): Promise<void>;
}

const riders = new WeakMap<object, Map<string, MovementRider>>();

/** Offers `rider` to the statement that writes the movements of document `docEntity` #`docId` in this transaction. */
export function rideWithMovements(trx: Kysely<any>, docEntity: string, docId: number, rider: MovementRider): void {
  let offered = riders.get(trx);
  if (!offered) riders.set(trx, (offered = new Map()));
  offered.set(keyOf(docEntity, docId), rider);
}

/**
 * Takes the riders offered for documents among `movements` (none of a reversal: a cancel's entry is not planned
 * from them); a rider taken is the caller's to send.
 */
export function takeRiders(trx: Kysely<any>, movements: Pick<MovedValue, 'docEntity' | 'docId' | 'note'>[]): MovementRider[] {
  const offered = riders.get(trx);
  if (!offered) return [];
  const taken: MovementRider[] = [];
  for (const m of movements) {
    if (m.docEntity === null || m.docId === null || m.note === REVERSAL_NOTE) continue;
    const key = keyOf(m.docEntity, m.docId);
    const r = offered.get(key);
    if (r) { taken.push(r); offered.delete(key); }
  }
  return taken;
}
