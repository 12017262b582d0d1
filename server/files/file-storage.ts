import { createReadStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors/app-error.ts';

/**
 * Where upload contents live, by key (`2026/11/<uuid>.pdf`); the file_upload
 * table holds the rest. Every server instance must see the same store: a
 * directory they share (a volume, NFS), or an S3-compatible bucket.
 */
export interface FileStorage {
  readonly kind: 'dir' | 's3';
  put(key: string, content: Buffer, contentType: string): Promise<void>;
  /** The content, or null when the store has no such key. */
  get(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
}

export function dirStorage(dir: string): FileStorage {
  return {
    kind: 'dir',
    async put(key, content) {
      const file = join(dir, key);
      mkdirSync(dirname(file), { recursive: true });
      try {
        writeFileSync(file, content, { flag: 'wx' });
      } catch (err) {
        // a full disk (ENOSPC) leaves the bytes written so far: no half file stays behind (keys are new
        // UUIDs, so the only file of that name is the one this write began)
        if ((err as { code?: string }).code !== 'EEXIST') rmSync(file, { force: true });
        throw err;
      }
    },
    async get(key) {
      const file = join(dir, key);
      return existsSync(file) ? createReadStream(file) : null;
    },
    async remove(key) {
      rmSync(join(dir, key), { force: true });
    },
  };
}

import type { S3Settings } from '../config/s3-settings.ts';
export type { S3Settings };

/**
 * A bucket that cannot be reached (connection refused or cut, timed out, a 5xx after the SDK's retries)
 * answers 503 FILE_STORAGE_UNAVAILABLE, not 500; a refusal (403, a missing bucket) stays the error it is.
 */
function outage(err: unknown): never {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const unreachable = (status === undefined && (e.code !== undefined || /Timeout|NetworkingError/.test(e.name ?? ''))) || (status !== undefined && status >= 500);
  if (unreachable) throw new AppError('FILE_STORAGE_UNAVAILABLE', `The file storage (S3) cannot be reached: ${(err as Error).message}`);
  throw err;
}

/** An S3-compatible bucket through the AWS SDK, loaded only when configured (it is large). */
export async function s3Storage(s: S3Settings): Promise<FileStorage & { close(): void }> {
  const { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await import('@aws-sdk/client-s3');
  // bounded: the SDK's default waits as long as the socket lets it; it still retries (3 attempts) before giving up
  const client = new S3Client({ region: s.region, endpoint: s.endpoint, forcePathStyle: s.forcePathStyle, credentials: s.credentials, requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 } });
  const Key = (key: string) => `${s.prefix}${key}`;
  return {
    kind: 's3',
    async put(key, content, contentType) {
      await client.send(new PutObjectCommand({ Bucket: s.bucket, Key: Key(key), Body: content, ContentType: contentType })).catch(outage);
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: Key(key) }));
        return (out.Body as Readable | undefined) ?? null;
      } catch (err) {
        const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null;
        return outage(err);
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: Key(key) })).catch(outage);
    },
    close: () => client.destroy(),
  };
}
