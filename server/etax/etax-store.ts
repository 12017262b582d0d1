import type { Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';

/**
 * The e-Tax files of each document, made once and kept (issue 47 §3): the XML (signed when a certificate
 * is configured) and its PDF/A-3 in each language asked for, served byte for byte ever after, so the
 * customer, the archive and an auditor hold the same original. A file is made on the first request after
 * the document is issued (documents issued before this table existed get theirs the same way); the
 * cancellation note of a cancelled document (T07) is a file of its own (kind 'cancellation:…').
 * Contents are base64 text: the same column type on SQLite and PostgreSQL.
 */
/** 'document' or 'cancellation', then the message's type code and number ('document:388:TPT-IV202611-0001'). */
export type EtaxKind = `${'document' | 'cancellation'}:${string}`;
export type EtaxFileName = 'xml' | 'pdf-th' | 'pdf-en';

export interface StoredEtaxFile {
  content: Buffer;
  /** What the XML row keeps about the message (file name, title, message, signed, warnings), as JSON. */
  meta: string;
}

export async function ensureEtaxFileTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('etax_file').ifNotExists()
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('etax_file_pk', ['entity', 'record_id', 'kind', 'file'])
    .execute();
}

async function read(k: Kysely<any>, key: { entity: string; id: number; kind: EtaxKind; file: EtaxFileName }): Promise<StoredEtaxFile | null> {
  const row = await k.selectFrom('etax_file').select(['content', 'meta'])
    .where('entity', '=', key.entity).where('record_id', '=', key.id).where('kind', '=', key.kind).where('file', '=', key.file)
    .executeTakeFirst() as { content: string; meta: string } | undefined;
  return row ? { content: Buffer.from(row.content, 'base64'), meta: row.meta } : null;
}

/**
 * The stored file, or the one `make` makes, stored first. Two first requests at once may both make one;
 * the first stored wins (the key is the primary key, the second insert does nothing) and both answer it.
 */
export async function storedEtaxFile(k: Kysely<any>, key: { entity: string; id: number; kind: EtaxKind; file: EtaxFileName }, make: () => Promise<StoredEtaxFile>): Promise<StoredEtaxFile> {
  const found = await read(k, key);
  if (found) return found;
  const made = await make();
  await k.insertInto('etax_file')
    .values({ entity: key.entity, record_id: key.id, kind: key.kind, file: key.file, content: made.content.toString('base64'), meta: made.meta, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['entity', 'record_id', 'kind', 'file']).doNothing())
    .execute();
  return (await read(k, key)) ?? made;
}
