import type { Kysely } from 'kysely';
import type { WriteEvent } from '../crud/access-policy.ts';

export type AuditAction = 'create' | 'update' | 'delete' | 'signin' | 'signin_failed' | 'signout' | 'password_change' | 'password_change_failed' | 'access_denied'
  | 'backup' | 'backup_download' | 'restore' | 'email' | 'page_setting' | 'custom_field_add' | 'custom_field_remove'
  | 'supervisor_approval' | 'reprint';

export interface AuditEntry {
  action: AuditAction;
  userId: number | null;
  username?: string | null;
  ip: string | null;
  entity?: string | null;
  recordId?: string | number | null;
  changes?: unknown;
  message?: string | null;
}

/**
 * Control characters and line separators in user input are escaped before
 * they are stored, so no value can start a fake line in any log view.
 */
export function neutralize(text: string | null | undefined, max = 500): string | null {
  if (text === null || text === undefined) return null;
  return text.slice(0, max).replace(UNSAFE, escapeChar);
}

/** Control characters, line separators and the bidirectional controls (U+202E shows text reversed, hiding what it says). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;
const BIDI = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON of the changed fields, with bidirectional controls shown as their escapes rather than applied when read. */
function changesText(changes: unknown): string {
  return JSON.stringify(changes).replace(BIDI, (c) => `\\${escapeChar(c)}`);
}

const IGNORED = new Set(['updated_at', 'updated_by', 'created_at', 'created_by']);

/** Field-by-field before/after of a write; JSON encoding escapes every control character. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    if (IGNORED.has(k)) continue;
    const a = before?.[k] ?? null;
    const b = after?.[k] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = [a, b];
  }
  return out;
}

export async function writeAudit(k: Kysely<any>, e: AuditEntry): Promise<void> {
  const now = new Date();
  await k.insertInto('system_log').values({
    created_at: now.toISOString(),
    log_date: now.toISOString().slice(0, 10),
    user_id: e.userId,
    username: neutralize(e.username ?? null, 100),
    ip: neutralize(e.ip, 64),
    action: e.action,
    entity: neutralize(e.entity ?? null, 100),
    record_id: e.recordId === null || e.recordId === undefined ? null : neutralize(String(e.recordId), 50),
    changes: e.changes === undefined ? null : changesText(e.changes),
    message: neutralize(e.message ?? null, 1000),
  }).execute();
}

/**
 * The write listener: one audit row per write, inside the write's own transaction. Written by `settle`
 * (the service's beforeCommit, stage settle): after the record's number is drawn late, so the row
 * records the write as it commits, number included.
 */
export function auditWrites(usernameOf: (e: WriteEvent) => string | null, settle: (trx: Kysely<any>, step: () => Promise<void>) => Promise<void>) {
  return async (trx: Kysely<any>, event: WriteEvent) => {
    await settle(trx, () => writeAudit(trx, {
      action: event.action,
      userId: event.ctx.userId,
      username: usernameOf(event),
      ip: event.ctx.ip,
      entity: event.entity,
      recordId: event.id,
      changes: diff(event.before, event.after),
    }));
  };
}
