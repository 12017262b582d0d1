import { randomUUID } from 'node:crypto';
import type { Database } from '../db/dialect-adapter.ts';
import type { FileStorage } from './file-storage.ts';

export interface StoredFile {
  id: string;
  original_name: string;
  mime_type: string;
  size: number;
  category: string;
  uploaded_by: number | null;
  created_at: string;
  path: string;
}

export async function ensureFileTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('file_upload').ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .execute();
}

/** Files are kept under a generated name (the id); the original name is only data. */
export async function storeFile(db: Database, storage: FileStorage, f: Omit<StoredFile, 'id' | 'path' | 'created_at'>, content: Buffer, ext: string): Promise<StoredFile> {
  const now = new Date();
  const id = `${randomUUID()}.${ext}`;
  // a key, not a path: "/" on every platform, the same in a directory and in a bucket
  const rel = [String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'), id].join('/');
  await storage.put(rel, content, f.mime_type);
  const row: StoredFile = { ...f, id, path: rel, created_at: now.toISOString() };
  await db.kysely.insertInto('file_upload').values(row).execute();
  return row;
}

export async function findFile(db: Database, id: string): Promise<StoredFile | undefined> {
  if (!/^[0-9a-f-]{36}\.[a-z0-9]{1,8}$/.test(id)) return undefined;
  const row = await db.kysely.selectFrom('file_upload').selectAll().where('id', '=', id).executeTakeFirst();
  return row as StoredFile | undefined;
}

/** Takes back files stored by a request that then failed, so a refused upload leaves nothing behind. */
export async function removeFiles(db: Database, storage: FileStorage, files: StoredFile[]): Promise<void> {
  for (const f of files) {
    await storage.remove(f.path);
    await db.kysely.deleteFrom('file_upload').where('id', '=', f.id).execute();
  }
}
