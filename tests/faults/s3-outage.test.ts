/**
 * Issue 36: the S3-compatible server (s3rver, of this test's own) stops while files are uploaded.
 * An upload answers 503 FILE_STORAGE_UNAVAILABLE in Thai, records nothing, and reading a stored
 * file answers the same 503 rather than 500; once the server is back, uploads work again without
 * a restart of the app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { buildApp } from '../../server/app.ts';
import { s3Storage } from '../../server/files/file-storage.ts';
import { createTestApp, TEST_HASH_LOG_N, TEST_SECRET, type TestApp } from '../support/test-app.ts';
import { multipart, PDF } from '../support/crm-fixtures.ts';

const BUCKET = 'bo-fault-uploads';

describe('an S3 outage under uploads', () => {
  let dir: string;
  let port = 0;
  let server: { run(): Promise<{ port: number }>; close(): Promise<void> } | null = null;
  let t: TestApp;
  let close: () => void = () => undefined;

  const startS3 = async () => {
    server = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true, configureBuckets: [{ name: BUCKET }] });
    port = (await server!.run()).port;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-fault-s3-'));
    await startS3();
    t = await createTestApp('sqlite');
    await t.app.close();
    const store = await s3Storage({ bucket: BUCKET, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', prefix: '', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    close = store.close;
    const rebuilt = await buildApp({ db: t.db, registry: t.registry, jwtSecret: TEST_SECRET, hashLogN: TEST_HASH_LOG_N, uploadDir: join(dir, 'unused'), uploadStore: store });
    t = { ...t, ...rebuilt };
  });
  afterAll(async () => {
    await t?.close();
    close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = () => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'a.pdf', contentType: 'application/pdf', content: PDF }]);
    return t.app.inject({ method: 'POST', url: '/api/file/upload/test', headers: { ...t.headers, ...headers, 'accept-language': 'th' }, payload });
  };

  it('503 while it is down, nothing recorded; uploads work again once it is back', async () => {
    const before = await upload();
    expect(before.statusCode, before.body).toBe(200);
    const id = before.json().data[0].id as string;
    await server!.close();
    server = null;
    try {
      const res = await upload();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error.code).toBe('FILE_STORAGE_UNAVAILABLE');
      expect(res.json().error.message).toMatch(/[\u0E00-\u0E7F]/);
      expect((await t.db.kysely.selectFrom('file_upload').select('id').execute()).length).toBe(1);
      const read = await t.app.inject({ method: 'GET', url: `/api/file/${id}`, headers: t.headers });
      expect({ status: read.statusCode, code: read.json().error?.code }).toEqual({ status: 503, code: 'FILE_STORAGE_UNAVAILABLE' });
    } finally {
      await startS3();
    }
    expect((await upload()).statusCode).toBe(200);
  });
});
