import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { msUntil, readAdminOptions } from '../../server/admin/admin-routes.ts';
import { BackupStore, type BackupEntry } from '../../server/admin/backup-store.ts';

describe('backup schedule settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-sched-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads BACKUP_DIR, BACKUP_KEEP and BACKUP_DAILY_AT with their defaults, and refuses bad values', () => {
    expect(readAdminOptions({}, '/data/backups')).toMatchObject({ backupDir: '/data/backups', keep: 7, dailyAt: '02:00' });
    expect(readAdminOptions({ BACKUP_DIR: '/b', BACKUP_KEEP: '3', BACKUP_DAILY_AT: 'off' }, '/x')).toMatchObject({ backupDir: '/b', keep: 3, dailyAt: 'off' });
    expect(() => readAdminOptions({ BACKUP_KEEP: '0' }, '/x')).toThrow(/BACKUP_KEEP/);
    expect(() => readAdminOptions({ BACKUP_DAILY_AT: '25:00' }, '/x')).toThrow(/BACKUP_DAILY_AT/);
  });

  it('waits until the next HH:MM, today or tomorrow', () => {
    const now = new Date(2026, 10, 23, 1, 30, 0);
    expect(msUntil('02:00', now)).toBe(30 * 60_000);
    expect(msUntil('01:00', now)).toBe(23.5 * 3600_000);
    expect(msUntil('01:30', now)).toBe(24 * 3600_000);
  });

  it('keeps the newest N scheduled backups and every manual or uploaded one', () => {
    const store = new BackupStore(dir);
    const make = (i: number, origin: BackupEntry['origin']) => {
      const id = `bk-2026110${i}-000000-00000${i}`;
      writeFileSync(join(dir, `${id}.sqlite`), 'x');
      const e: BackupEntry = { id, file: `${id}.sqlite`, format: 'sqlite', size: 1, sha256: '', created_at: `2026-11-0${i}T00:00:00.000Z`, created_by: null, created_by_name: null, origin, dialect: 'sqlite', schema_version: 1, counts: {} };
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(e));
    };
    for (let i = 1; i <= 6; i++) make(i, i === 2 ? 'manual' : 'schedule');
    const removed = store.prune(3);
    expect(removed.map((e) => e.created_at.slice(0, 10))).toEqual(['2026-11-03', '2026-11-01']);
    expect(store.list().map((e) => e.created_at.slice(8, 10))).toEqual(['06', '05', '04', '02']);
    store.prune(1);
    expect(store.list().map((e) => `${e.created_at.slice(8, 10)}:${e.origin}`)).toEqual(['06:schedule', '02:manual']);
  });
});
