import type { CompiledQuery } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChangeTracker } from '../db/change-tracker.ts';
import { markStableAnswer } from '../http/stable-answer.ts';

/** What the cache holds by default: list answers, in bytes (LIST_CACHE_MB). */
export const DEFAULT_LIST_CACHE_BYTES = 16 * 1024 * 1024;
/** Bytes counted per entry besides the answer: its key, the table names and the map slot. */
const ENTRY_OVERHEAD = 256;
/** An answer's compressed forms ride along with it (server/ops/compression-cache.ts); they are counted as half its size. */
const COMPRESSED_SHARE = 0.5;

interface Kept { answer: Buffer; tables: readonly string[]; at: number }

/** A read about to run whose answer may be kept: the tables it depends on, and the point before it ran. */
export interface ListRead { key: string; tables: readonly string[]; at: number }

/** One parameter as text that no other value of another type shares, or null for a value not worth keeping by. */
function parameterText(v: unknown): string | null {
  switch (typeof v) {
    case 'string': return JSON.stringify(v);
    case 'number': return Object.is(v, -0) ? 'n-0' : `n${v}`;
    case 'bigint': return `b${v}`;
    case 'boolean': return `t${v}`;
    default: return v === null ? 'z' : null;
  }
}

/**
 * List answers kept by the statements that made them, until a table they read changes.
 *
 * A list page is read far more often than the tables under it change (the first page of a list,
 * opened by many people, again after every navigation), and most of its cost is the database's
 * run of its statement. An answer is a pure function of its statements, their parameters and the
 * rows of the tables they read: the key names the first two exactly (SQL text and every
 * parameter), and the database's change tracker (server/db/change-tracker.ts) says whether any of
 * those tables changed since the answer was read. Whose answer it was does not matter: the
 * caller's row scope and fields are part of the SQL and its parameters, so another caller finds it
 * only when they would have read the very same rows.
 *
 * Kept answers are marked stable, so their compressed forms are kept with them (no hashing).
 */
export class ListAnswerCache {
  private readonly entries: LRUCache<string, Kept> | null;
  hits = 0;
  misses = 0;

  constructor(private readonly tracker: ChangeTracker, readonly maxBytes = DEFAULT_LIST_CACHE_BYTES) {
    this.entries = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)), sizeCalculation: (k, key) => Math.ceil(k.answer.length * (1 + COMPRESSED_SHARE)) + key.length * 2 + ENTRY_OVERHEAD }) : null;
  }

  /**
   * The answer kept for these statements (and `extra`, whatever else the answer is made of) if
   * none of their tables changed since it was read; otherwise what `set` needs to keep the answer
   * about to be read, or null when it cannot be kept.
   */
  lookup(statements: readonly CompiledQuery[], extra: string): { answer: Buffer } | { read: ListRead | null } {
    if (!this.entries) return { read: null };
    const at = this.tracker.mark();
    if (at === null) return { read: null };
    let key = extra;
    for (const s of statements) {
      key += `\u0000${s.sql}\u0000`;
      for (const p of s.parameters) {
        const text = parameterText(p);
        if (text === null) return { read: null };
        key += `${text},`;
      }
    }
    const kept = this.entries.get(key);
    if (kept) {
      if (this.tracker.unchangedSince(kept.tables, kept.at)) {
        this.hits++;
        return { answer: kept.answer };
      }
      this.entries.delete(key);
    }
    this.misses++;
    const tables: string[] = [];
    for (const s of statements) {
      const read = this.tracker.reads(s.sql, s.parameters);
      if (!read) return { read: null };
      tables.push(...read);
    }
    return { read: { key, tables, at } };
  }

  /**
   * Keeps `answer`, read after `lookup` gave `read`, unless a table it read changed meanwhile, and
   * answers the Buffer to send: the one kept, so its compressed forms are kept from the first time.
   */
  set(read: ListRead, answer: Buffer): Buffer {
    if (!this.entries || !this.tracker.unchangedSince(read.tables, read.at)) return answer;
    // a small Buffer is a slice of an 8 KB block Node shares among many: kept, it would hold the whole block
    let own = answer;
    if (answer.byteOffset !== 0 || answer.buffer.byteLength !== answer.length) {
      own = Buffer.allocUnsafeSlow(answer.length);
      answer.copy(own);
    }
    markStableAnswer(own);
    this.entries.set(read.key, { answer: own, tables: read.tables, at: read.at });
    return own;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  get heldBytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}
