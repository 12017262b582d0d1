/**
 * The compressed-answer cache (server/ops/compression-cache.ts): an answer whose bytes were
 * compressed before is sent as it was compressed then, and only then.
 */
import { describe, expect, it } from 'vitest';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { markStableAnswer } from '../../server/http/stable-answer.ts';
import { CompressionCache } from '../../server/ops/compression-cache.ts';
import { readConfig } from '../../server/config/app-config.ts';

const body = (n: number, text = 'สินค้า') => Buffer.from(JSON.stringify({ success: true, data: Array.from({ length: n }, (_, i) => ({ id: i, name_th: `${text} ${i}` })) }));

describe('CompressionCache', () => {
  it('gives the same bytes as compressing afresh, and compresses the same bytes only once', () => {
    const cache = new CompressionCache(1024 * 1024);
    let calls = 0;
    const br = (p: Buffer) => { calls++; return brotliCompressSync(p); };
    const a = body(40);
    const first = cache.compress('br', a, br);
    const again = cache.compress('br', Buffer.from(a), br);
    expect(calls).toBe(1);
    expect(again.equals(brotliCompressSync(a))).toBe(true);
    expect(brotliDecompressSync(again).equals(a)).toBe(true);
    expect(again).toBe(first);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });

  it('never answers one payload with another\'s compressed form, even one of the same length', () => {
    const cache = new CompressionCache(1024 * 1024);
    const a = body(40, 'สินค้า');
    const b = body(40, 'บริการ'); // same length in UTF-8, other bytes
    expect(b.length).toBe(a.length);
    cache.compress('br', a, brotliCompressSync);
    const out = cache.compress('br', b, brotliCompressSync);
    expect(brotliDecompressSync(out).equals(b)).toBe(true);
    expect(cache.hits).toBe(0);
  });

  it('keeps each encoding apart', () => {
    const { brotliCompressSync: br, gzipSync: gz } = new CompressionCache(1024 * 1024).zlib();
    const a = body(40);
    const b1 = br(a);
    const g1 = gz(a);
    expect(brotliDecompressSync(br(a)).equals(a)).toBe(true);
    expect(gunzipSync(gz(a)).equals(a)).toBe(true);
    expect(b1.equals(g1)).toBe(false);
  });

  it('passes the plugin\'s options on to the compressor', () => {
    const a = body(200);
    const quality = (q: number) => new CompressionCache(1024 * 1024).zlib().brotliCompressSync(a, { params: { [constants.BROTLI_PARAM_QUALITY]: q } });
    expect(quality(11).length).toBeLessThan(quality(0).length);
  });

  it('lets the least recently used answers go to stay within its size', () => {
    const payloads = Array.from({ length: 12 }, (_, i) => body(30, `ชุด${String(i).padStart(2, '0')}`));
    const largest = Math.max(...payloads.map((p) => brotliCompressSync(p).length));
    // room for ten answers of these sizes, not twelve
    const cache = new CompressionCache((largest + 200) * 10);
    for (const p of payloads.slice(0, 10)) cache.compress('br', p, brotliCompressSync);
    expect(cache.size).toBe(10);
    cache.compress('br', payloads[0]!, brotliCompressSync); // used again: now the most recent
    cache.compress('br', payloads[10]!, brotliCompressSync);
    cache.compress('br', payloads[11]!, brotliCompressSync);
    expect(cache.heldBytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.size).toBeLessThan(12);
    const hits = cache.hits;
    cache.compress('br', payloads[0]!, brotliCompressSync);
    expect(cache.hits).toBe(hits + 1);
    cache.compress('br', payloads[1]!, brotliCompressSync);
    expect(cache.hits).toBe(hits + 1); // the oldest left
  });

  it('keeps nothing when its size is 0, and no answer larger than an eighth of its size', () => {
    const off = new CompressionCache(0);
    let calls = 0;
    const br = (p: Buffer) => { calls++; return brotliCompressSync(p); };
    const a = body(40);
    off.compress('br', a, br);
    off.compress('br', a, br);
    expect([calls, off.size]).toEqual([2, 0]);
    const small = new CompressionCache(brotliCompressSync(a).length * 4);
    small.compress('br', a, br);
    expect(small.size).toBe(0);
  });

  it('is sized by COMPRESSION_CACHE_MB (default 4, 0 for none) and refuses anything but a whole number', () => {
    const env = { DATA_DIR: '/tmp/bo-config-test', JWT_SECRET: 'x'.repeat(32) };
    expect(readConfig(env).compressionCacheBytes).toBe(4 * 1024 * 1024);
    expect(readConfig({ ...env, COMPRESSION_CACHE_MB: '0' }).compressionCacheBytes).toBe(0);
    expect(readConfig({ ...env, COMPRESSION_CACHE_MB: '16' }).compressionCacheBytes).toBe(16 * 1024 * 1024);
    expect(() => readConfig({ ...env, COMPRESSION_CACHE_MB: '-1' })).toThrow(/COMPRESSION_CACHE_MB must be a whole number/);
    expect(() => readConfig({ ...env, COMPRESSION_CACHE_MB: '2.5' })).toThrow(/COMPRESSION_CACHE_MB/);
  });

  it('keeps a stable answer\'s compressed forms with the answer itself, found without its bytes', () => {
    const cache = new CompressionCache(1024 * 1024);
    let calls = 0;
    const br = (p: Buffer) => { calls++; return brotliCompressSync(p); };
    const answer = body(40);
    markStableAnswer(answer);
    const first = cache.compress('br', answer, br);
    expect(cache.compress('br', answer, br)).toBe(first);
    expect(calls).toBe(1);
    expect(brotliDecompressSync(first).equals(answer)).toBe(true);
    // kept with the answer, not in the hashed entries: a copy of its bytes is compressed on its own
    expect(cache.size).toBe(0);
    cache.compress('br', Buffer.from(answer), br);
    expect(calls).toBe(2);
    // and per encoding
    expect(gunzipSync(cache.compress('gz', answer, (p) => gzipSync(p))).equals(answer)).toBe(true);
    expect(cache.compress('br', answer, br)).toBe(first);
  });

  it('keeps no stable answer\'s forms either when its size is 0', () => {
    const cache = new CompressionCache(0);
    let calls = 0;
    const answer = body(40);
    markStableAnswer(answer);
    for (let i = 0; i < 2; i++) cache.compress('br', answer, (p) => { calls++; return brotliCompressSync(p); });
    expect(calls).toBe(2);
  });
});
