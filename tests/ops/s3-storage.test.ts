/**
 * Uploads in an S3-compatible bucket (UPLOAD_STORE=s3) through the AWS SDK,
 * against s3rver, a local S3-compatible server, on 127.0.0.1: two instances
 * sharing the bucket (and a database) see each other's files, a refused
 * upload leaves no object behind, and objects live under the configured prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { buildApp } from '../../server/app.ts';
import { s3Storage, type S3Settings } from '../../server/files/file-storage.ts';
import { readConfig } from '../../server/config/app-config.ts';
import { createTestApp, TEST_HASH_LOG_N, TEST_SECRET, type TestApp } from '../support/test-app.ts';
import { multipart, PDF, ELF } from '../support/crm-fixtures.ts';

const BUCKET = 'bo-uploads';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

describe('uploads in an S3-compatible bucket', () => {
  let dir: string;
  let server: { run(): Promise<{ port: number }>; close(): Promise<void> };
  let settings: S3Settings;
  let one: TestApp;
  let two: Awaited<ReturnType<typeof buildApp>>;
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-s3rver-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, configureBuckets: [{ name: BUCKET }] });
    const { port } = await server.run();
    // the same settings as UPLOAD_STORE=s3 S3_BUCKET=… S3_ENDPOINT=… would give
    const config = readConfig({ UPLOAD_STORE: 's3', S3_BUCKET: BUCKET, S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_PREFIX: 'uploads/', DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) });
    expect(config.uploadStore.kind).toBe('s3');
    settings = { ...(config.uploadStore as S3Settings), credentials };
    expect(settings.forcePathStyle).toBe(true);
    one = await createTestApp('sqlite');
    // createTestApp keeps files in a directory: rebuild both instances on the bucket, on the same database
    await one.app.close();
    const storeOne = await s3Storage(settings);
    const storeTwo = await s3Storage(settings);
    closers.push(storeOne.close, storeTwo.close);
    const rebuilt = await buildApp({ db: one.db, registry: one.registry, jwtSecret: TEST_SECRET, hashLogN: TEST_HASH_LOG_N, uploadDir: join(dir, 'unused'), uploadStore: storeOne });
    one = { ...one, ...rebuilt };
    two = await buildApp({ db: one.db, registry: one.registry, jwtSecret: TEST_SECRET, hashLogN: TEST_HASH_LOG_N, uploadDir: join(dir, 'unused-2'), uploadStore: storeTwo });
  });
  afterAll(async () => {
    await two?.app.close();
    await one?.close();
    for (const c of closers) c();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const objects = async () => {
    const c = new S3Client({ region: settings.region, endpoint: settings.endpoint, forcePathStyle: true, credentials });
    try {
      const out = await c.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      return (out.Contents ?? []).map((o) => o.Key!);
    } finally {
      c.destroy();
    }
  };

  it('a file uploaded through one instance is stored in the bucket and downloads through the other', async () => {
    const body = multipart([{ filename: 'quote.pdf', contentType: 'application/pdf', content: PDF }]);
    const up = await one.app.inject({ method: 'POST', url: '/api/file/upload/crm', headers: { ...one.headers, ...body.headers }, payload: body.payload });
    expect(up.statusCode, up.body).toBe(200);
    const id = up.json().data[0].id as string;
    const keys = await objects();
    expect(keys.some((k) => k.startsWith('uploads/') && k.endsWith(id))).toBe(true);
    const down = await two.app.inject({ method: 'GET', url: `/api/file/${id}`, headers: one.headers });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(PDF)).toBe(true);
  });

  it('a refused upload leaves no object in the bucket', async () => {
    const before = await objects();
    const body = multipart([{ filename: 'ok.pdf', contentType: 'application/pdf', content: PDF }, { filename: 'evil.pdf', contentType: 'application/pdf', content: ELF }]);
    const up = await one.app.inject({ method: 'POST', url: '/api/file/upload/crm', headers: { ...one.headers, ...body.headers }, payload: body.payload });
    expect(up.statusCode).toBe(415);
    expect(await objects()).toEqual(before);
  });

  it('an unknown file id answers 404', async () => {
    const missing = await two.app.inject({ method: 'GET', url: '/api/file/00000000-0000-0000-0000-000000000000.pdf', headers: one.headers });
    expect(missing.statusCode).toBe(404);
  });
});
