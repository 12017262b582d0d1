import { hash } from 'node:crypto';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { isStableAnswer } from '../http/stable-answer.ts';

/** What the cache holds by default: compressed answers, in bytes (COMPRESSION_CACHE_MB). */
export const DEFAULT_COMPRESSION_CACHE_BYTES = 4 * 1024 * 1024;
/** Bytes counted per entry besides the answer itself: its key, the Buffer and the map slot. */
const ENTRY_OVERHEAD = 160;

type SyncCompressor = (payload: Buffer, options?: zlib.BrotliOptions | zlib.ZlibOptions) => Buffer;

/**
 * Compressed answers kept by what they compress. Most answers of a back office are sent
 * again unchanged (the first page of a list, read by many people and again after every
 * navigation), and compressing one costs several times what reading it from the database
 * does (docs/performance.md). An answer's compressed form depends only on its bytes and the
 * encoding, so an answer whose bytes were compressed before is sent as it was compressed then.
 *
 * The key is the SHA-256 of the bytes: a different answer never finds another's compressed
 * form. Least recently used entries leave first, within `maxBytes` of compressed output.
 *
 * A stable answer (server/http/stable-answer.ts: one a cache hands out again as the same Buffer,
 * such as a kept list page) has its compressed forms kept with it instead, found by the Buffer
 * itself without hashing its bytes, and gone when the answer is. The cache that keeps the answer
 * counts them in its own size.
 */
export class CompressionCache {
  private readonly entries: LRUCache<string, Buffer> | null;
  private readonly ofStable = new WeakMap<Buffer, Record<string, Buffer>>();
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes = DEFAULT_COMPRESSION_CACHE_BYTES) {
    // an answer above an eighth of the room would push out many smaller ones for one answer
    this.entries = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)), sizeCalculation: (out) => out.length + ENTRY_OVERHEAD }) : null;
  }

  /** `compress(payload)`, or what it gave for the same bytes before. */
  compress(encoding: string, payload: Buffer, compress: (payload: Buffer) => Buffer): Buffer {
    if (!this.entries) return compress(payload);
    if (isStableAnswer(payload)) return this.compressStable(encoding, payload, compress);
    const key = encoding + hash('sha256', payload, 'base64');
    const kept = this.entries.get(key);
    if (kept) {
      this.hits++;
      return kept;
    }
    this.misses++;
    const out = compress(payload);
    this.entries.set(key, out);
    return out;
  }

  private compressStable(encoding: string, payload: Buffer, compress: (payload: Buffer) => Buffer): Buffer {
    let forms = this.ofStable.get(payload);
    const kept = forms?.[encoding];
    if (kept) {
      this.hits++;
      return kept;
    }
    this.misses++;
    const out = compress(payload);
    if (!forms) this.ofStable.set(payload, (forms = {}));
    forms[encoding] = out;
    return out;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  get heldBytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /**
   * The synchronous compressors @fastify/compress uses for buffered answers (its `zlib`
   * option), going through this cache. Streamed answers (larger ones) still use node:zlib's
   * streams, which the plugin falls back to when this object has none.
   */
  zlib(): { brotliCompressSync: SyncCompressor; gzipSync: SyncCompressor; deflateSync: SyncCompressor } {
    const wrap = (encoding: string, fn: SyncCompressor): SyncCompressor => (payload, options) => this.compress(encoding, payload, (p) => fn(p, options));
    return {
      brotliCompressSync: wrap('br:', zlib.brotliCompressSync),
      gzipSync: wrap('gz:', zlib.gzipSync),
      deflateSync: wrap('df:', zlib.deflateSync),
    };
  }
}
