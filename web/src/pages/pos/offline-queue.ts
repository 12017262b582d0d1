/**
 * The register's sales waiting for the server (issue 51 §3), kept in the browser's IndexedDB so that a reload or
 * a closed tab loses none. Each sale keeps the Idempotency-Key it was made with: sending it again, after a network
 * error half-way, stores it once (the server answers the first sale for a repeated key). A sale the server refuses
 * (stock, price, a closed shift) stays here, marked refused with the reason, until the cashier has seen it.
 */
import type { SlipData } from './slip-data.ts';

export interface QueuedSale {
  /** The Idempotency-Key: also the record's key here. */
  key: string;
  /** Order of making: the queue is sent oldest first. */
  seq: number;
  terminal_id: number;
  body: Record<string, unknown>;
  provisional_no: string;
  created_at: string;
  state: 'waiting' | 'refused';
  error?: string;
  slip: SlipData;
}

const DB = 'bo-pos';
const STORE = 'sales';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => { req.result.createObjectStore(STORE, { keyPath: 'key' }); };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB did not open'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
    });
  } finally {
    db.close();
  }
}

export const offlineQueue = {
  put: (sale: QueuedSale) => run('readwrite', (s) => s.put(sale)).then(() => undefined),
  remove: (key: string) => run('readwrite', (s) => s.delete(key)).then(() => undefined),
  /** Every sale of the terminal, oldest first. */
  async all(terminalId: number): Promise<QueuedSale[]> {
    const rows = (await run('readonly', (s) => s.getAll())) as QueuedSale[];
    return rows.filter((r) => r.terminal_id === terminalId).sort((a, b) => a.seq - b.seq);
  },
};

/**
 * A provisional number for a sale made offline: the terminal's code, OFF, the day and a counter kept in the
 * browser, so the slip and the cashier can name it until the server gives the real number.
 */
export function provisionalNumber(terminalCode: string, day: string): { no: string; seq: number } {
  const key = `pos.offline-seq.${terminalCode}`;
  const seq = Number(localStorage.getItem(key) ?? 0) + 1;
  localStorage.setItem(key, String(seq));
  return { no: `${terminalCode}-OFF${day.replace(/-/g, '').slice(2)}-${String(seq).padStart(4, '0')}`, seq: Date.now() * 1000 + (seq % 1000) };
}
