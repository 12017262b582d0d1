import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { generatedKey } from '../db/dialect-sql.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';

/**
 * Tables no schema file describes, so the generic API can never serve them:
 * credentials, revoked tokens and the audit log.
 */
export async function ensureAuthTables(db: Database, registry: SchemaRegistry): Promise<void> {
  const k: Kysely<any> = db.kysely;
  const id = (c: any) => generatedKey(db.kysely, c);
  await k.schema.createTable('user_credential').ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references(`${registry.held('userAccounts')}.id`).onDelete('cascade'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password_changed_at', 'text')
    .execute();
  await k.schema.createTable('revoked_token').ifNotExists()
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await k.schema.createTable('system_log').ifNotExists()
    .addColumn('id', 'integer', id)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('log_date', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text')
    .addColumn('ip', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text')
    .addColumn('record_id', 'text')
    .addColumn('changes', 'text')
    .addColumn('message', 'text')
    .execute();
  await sql`create index if not exists ix_system_log_log_date on system_log (log_date, id)`.execute(k);
}
