import { hash } from 'node:crypto';
import zlib from 'node:zlib';

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
 */
export class CompressionCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes = DEFAULT_COMPRESSION_CACHE_BYTES) {}

  /** `compress(payload)`, or what it gave for the same bytes before. */
  compress(encoding: string, payload: Buffer, compress: (payload: Buffer) => Buffer): Buffer {
    if (this.maxBytes <= 0) return compress(payload);
    const key = encoding + hash('sha256', payload, 'base64');
    const kept = this.entries.get(key);
    if (kept) {
      this.hits++;
      // most recently used last: Map keeps insertion order
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    this.misses++;
    const out = compress(payload);
    const size = out.length + ENTRY_OVERHEAD;
    if (size > this.maxBytes / 8) return out;
    this.entries.set(key, out);
    this.bytes += size;
    for (const [oldest, buf] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= buf.length + ENTRY_OVERHEAD;
    }
    return out;
  }

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
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
