/**
 * Issue 36: the disk fills up under uploads, backups and the SQLite file. A size-limited tmpfs
 * (mounted by the test, which needs root as in CI; skipped with the reason printed otherwise)
 * is filled almost to the brim. An upload and a backup answer 507 STORAGE_FULL with a Thai
 * message and leave no partial file; a SQLite database on a full disk refuses the write the same
 * way, keeps every row it had and passes its integrity check; everything works again once space
 * is freed. Uploads and backups on SQLite and PostgreSQL; the SQLite file on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createTestApp, ADMIN_PASSWORD, TEST_HASH_LOG_N, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { buildInstance, multipart, PDF } from '../support/crm-fixtures.ts';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';

/** A tmpfs of `size` on a new directory, or why there cannot be one here. */
function mountSmallDisk(size: string): { dir: string; unmount(): void } | string {
  if (userInfo().uid !== 0) return 'mounting a size-limited tmpfs needs root (CI runs as root)';
  const dir = mkdtempSync(join(tmpdir(), 'bo-fault-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${(r.stderr || r.stdout || String(r.error)).trim()}`;
  }
  return { dir, unmount: () => { spawnSync('umount', ['-l', dir]); rmSync(dir, { recursive: true, force: true }); } };
}

/** Fills the disk under `dir` until about `leave` bytes are free; answers the filler's path. */
function fill(dir: string, leave: number): string {
  const { bavail, bsize } = statfsSync(dir);
  const filler = join(dir, 'filler.bin');
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leave)));
  return filler;
}

/** Every regular file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as { path?: string }).path ?? '', e.name).slice(dir.length + 1)).sort();
}

const probe = mountSmallDisk('1m');
const skip = typeof probe === 'string' ? probe : null;
if (typeof probe !== 'string') probe.unmount();
if (skip) console.log(`[tests] SKIPPED tests/faults/disk-full.test.ts: ${skip}, so a full disk was NOT tested`);

describe.skipIf(!!skip).each(testDialects())('a full disk under uploads and backups on %s', (dialect) => {
  let disk: { dir: string; unmount(): void };
  let t: TestApp;
  let filler: string;

  beforeAll(async () => {
    disk = mountSmallDisk('4m') as { dir: string; unmount(): void };
    const uploadDir = join(disk.dir, 'uploads');
    const backupDir = join(disk.dir, 'backups');
    mkdirSync(uploadDir);
    mkdirSync(backupDir);
    t = await createTestApp(dialect, undefined, { uploadDir, backupDir, uploadMaxBytes: 1024 * 1024 });
    // not a block left: a backup of an empty PostgreSQL database is only a few kilobytes once compressed
    filler = fill(disk.dir, 0);
  });
  afterAll(async () => {
    await t?.close();
    disk?.unmount();
  });

  const upload = () => {
    // a valid PDF of 200 KB: more than the space left
    const big = Buffer.concat([PDF, Buffer.alloc(200 * 1024, 0x20)]);
    const { payload, headers } = multipart([{ name: 'file', filename: 'big.pdf', contentType: 'application/pdf', content: big }]);
    return t.app.inject({ method: 'POST', url: '/api/file/upload/test', headers: { ...t.headers, ...headers, 'accept-language': 'th' }, payload });
  };

  it('an upload: 507 STORAGE_FULL in Thai, no partial file, no record', async () => {
    const res = await upload();
    expect(res.statusCode, res.body).toBe(507);
    expect(res.json().error.code).toBe('STORAGE_FULL');
    expect(res.json().error.message).toMatch(/[\u0E00-\u0E7F]/);
    expect(filesUnder(disk.dir)).toEqual(['filler.bin']);
    expect((await t.db.kysely.selectFrom('file_upload').select('id').execute()).length).toBe(0);
  });

  it('a backup: 507 STORAGE_FULL, no partial backup file, none listed', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/db_manage/backup', headers: t.headers });
    expect(res.statusCode, res.body).toBe(507);
    expect(res.json().error.code).toBe('STORAGE_FULL');
    expect(filesUnder(disk.dir)).toEqual(['filler.bin']);
    const listed = await t.app.inject({ method: 'GET', url: '/api/db_manage/backup', headers: t.headers });
    expect(listed.json().data).toEqual([]);
  });

  it('with space freed, both work again', async () => {
    rmSync(filler);
    expect((await upload()).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/db_manage/backup', headers: t.headers });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe.skipIf(!!skip || !testDialects().includes('sqlite'))('the SQLite file on a full disk', () => {
  let disk: { dir: string; unmount(): void };

  beforeAll(() => { disk = mountSmallDisk('12m') as { dir: string; unmount(): void }; });
  afterAll(() => disk?.unmount());

  it('a write that does not fit answers 507 STORAGE_FULL; the database keeps every row and passes its integrity check', async () => {
    const file = join(disk.dir, 'full.sqlite');
    const inst = await buildInstance(file, { uploadDir: join(disk.dir, 'up') }, true);
    let saved: string[] = [];
    let refused: { statusCode: number; body: string } | null = null;
    try {
      await ensureAdmin(inst.db, inst.service, ADMIN_PASSWORD, TEST_HASH_LOG_N);
      const signin = await inst.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
      const headers = { authorization: `Bearer ${signin.json().data.id_token as string}` };
      const filler = fill(disk.dir, 48 * 1024);
      for (let i = 0; i < 400 && !refused; i++) {
        const code = `DF${i}`;
        const res = await inst.app.inject({ method: 'POST', url: '/api/return_reason', headers: { ...headers, 'accept-language': 'th' }, payload: { code, name_th: `เหตุผล ${'ก'.repeat(150)} ${i}` } });
        if (res.statusCode === 201) saved.push(code);
        else refused = res;
      }
      expect(refused, 'the disk never filled up').not.toBeNull();
      expect(refused!.statusCode, refused!.body).toBe(507);
      expect(JSON.parse(refused!.body).error).toMatchObject({ code: 'STORAGE_FULL', message: expect.stringMatching(/[\u0E00-\u0E7F]/) });
      rmSync(filler);
      // space again: the server saves without a restart
      const again = await inst.app.inject({ method: 'POST', url: '/api/return_reason', headers, payload: { code: 'DF-AFTER', name_th: 'หลังจากมีที่ว่าง' } });
      expect(again.statusCode, again.body).toBe(201);
      saved = [...saved, 'DF-AFTER'];
    } finally {
      await inst.close();
    }
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      const codes = (raw.prepare("select code from return_reason where code like 'DF%'").all() as { code: string }[]).map((r) => r.code).sort();
      expect(codes).toEqual([...saved].sort());
    } finally {
      raw.close();
    }
  }, 60_000);
});
