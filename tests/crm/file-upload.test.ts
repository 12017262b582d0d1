/**
 * Uploads and downloads (POST /api/file/upload[/category], GET /api/file/{id}):
 * size limit, content-checked type allow-list, names with folder parts,
 * categories, and who may download a file (uploader, anyone who can see a
 * record referencing it, nobody else).
 */
import { existsSync, readdirSync, readFileSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { createCrmApp, ELF, EXE, multipart, PDF, PNG, SCRIPT, type Part } from '../support/crm-fixtures.ts';

const MAX = 1024 * 1024;

/** Every file under dir, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(join(dir, p)).isFile()).sort();
}

describe.each(testDialects())('file upload and download on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let uploadDir: string;
  let viewer: Awaited<ReturnType<Client['staff']>>;
  let outsider: Awaited<ReturnType<Client['staff']>>;
  let companyId: number;

  const upload = (parts: Part[], opts: { url?: string; headers?: Record<string, string>; boundary?: string } = {}) => {
    const body = multipart(parts, opts.boundary);
    return t.app.inject({ method: 'POST', url: opts.url ?? '/api/file/upload', headers: { ...(opts.headers ?? t.headers), ...body.headers }, payload: body.payload });
  };
  const download = (id: string, headers: Record<string, string> = t.headers) => t.app.inject({ method: 'GET', url: `/api/file/${id}`, headers });
  const storedCount = async () => Number((await t.db.kysely.selectFrom('file_upload').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const snapshot = async () => ({ rows: await storedCount(), files: filesUnder(uploadDir) });

  beforeAll(async () => {
    uploadDir = mkdtempSync(join(tmpdir(), 'bo-crm-uploads-'));
    t = await createCrmApp(dialect, { uploadDir, uploadMaxBytes: MAX });
    c = new Client(t);
    viewer = await c.staff('viewer', { company: { view: true } });
    outsider = await c.staff('outsider', { working_record: { view: true, edit: true } });
    const res = await t.app.inject({ method: 'POST', url: '/api/company', headers: t.headers, payload: { customer_name_th: 'บริษัท ไฟล์แนบ จำกัด' } });
    companyId = res.json().data.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('limits', () => {
    it(`a file larger than uploadMaxBytes: 413 PAYLOAD_TOO_LARGE, nothing stored`, async () => {
      const before = await snapshot();
      const big = Buffer.concat([PDF, Buffer.alloc(MAX + 1 - PDF.length, 0x20)]);
      const res = await upload([{ filename: 'big.pdf', contentType: 'application/pdf', content: big }]);
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await snapshot()).toEqual(before);
    });

    it('a file of exactly uploadMaxBytes is accepted', async () => {
      const exact = Buffer.concat([PDF, Buffer.alloc(MAX - PDF.length, 0x20)]);
      const res = await upload([{ filename: 'exact.pdf', content: exact }]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data[0].size).toBe(MAX);
    });

    it('a valid file followed by an oversized one in the same request: 413 and nothing stored', async () => {
      const before = await snapshot();
      const big = Buffer.concat([PDF, Buffer.alloc(MAX + 10, 0x20)]);
      const res = await upload([{ filename: 'ok.pdf', content: PDF }, { filename: 'big.pdf', content: big }]);
      expect(res.statusCode, res.body).toBe(413);
      expect(await snapshot()).toEqual(before);
    });

    it('a valid file followed by a refused type in the same request: 415 and nothing stored', async () => {
      const before = await snapshot();
      const res = await upload([{ filename: 'ok.png', content: PNG }, { filename: 'invoice.pdf', content: ELF }]);
      expect(res.statusCode, res.body).toBe(415);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['an ELF executable renamed invoice.pdf', 'invoice.pdf', ELF],
      ['a Windows executable renamed invoice.pdf', 'invoice.pdf', EXE],
      ['a shell script renamed invoice.pdf', 'invoice.pdf', SCRIPT],
      ['HTML renamed invoice.pdf', 'invoice.pdf', Buffer.from('<html><script>alert(1)</script></html>')],
      ['a PNG named .pdf', 'photo.pdf', PNG],
      ['a real PDF named .exe', 'invoice.exe', PDF],
      ['a real PDF named .html', 'invoice.html', PDF],
      ['a real PDF without extension', 'invoice', PDF],
      ['a shell script named run.sh', 'run.sh', SCRIPT],
    ])('%s: 415 UNSUPPORTED_MEDIA_TYPE, nothing stored', async (_label, filename, content) => {
      const before = await snapshot();
      const res = await upload([{ filename, contentType: 'application/pdf', content }]);
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await snapshot()).toEqual(before);
    });

    it('a body that is not multipart: 415', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: t.headers, payload: { file: 'x' } });
      expect(res.statusCode, res.body).toBe(415);
    });

    it('a malformed multipart body: 400 BAD_REQUEST, never 500, nothing stored', async () => {
      const before = await snapshot();
      const bodies: [string, string][] = [
        ['multipart/form-data; boundary=xyz', 'garbage'],
        ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut short'],
        ['multipart/form-data', '--xyz\r\n'],
      ];
      for (const [type, payload] of bodies) {
        const res = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: { ...t.headers, 'content-type': type }, payload });
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(res.json().error.code).toMatch(/^(BAD_REQUEST|UNSUPPORTED_MEDIA_TYPE)$/);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('a multipart body without a file: 400', async () => {
      const res = await upload([{ name: 'note', content: 'just a field' }]);
      expect(res.statusCode, res.body).toBe(400);
    });

    it('without a token: 401, nothing stored', async () => {
      const before = await snapshot();
      const res = await upload([{ filename: 'a.pdf', content: PDF }], { headers: {} });
      expect(res.statusCode, res.body).toBe(401);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('names and categories', () => {
    it.each([
      ['../../etc/passwd.pdf', 'passwd.pdf'],
      ['..\\..\\windows\\evil.pdf', 'evil.pdf'],
      ['/etc/cron.d/job.pdf', 'job.pdf'],
      ['....//....//x.pdf', 'x.pdf'],
    ])('"%s" is stored under a generated name inside the upload dir, named "%s"', async (filename, kept) => {
      const before = filesUnder(uploadDir);
      const res = await upload([{ filename, content: PDF }]);
      expect(res.statusCode, res.body).toBe(200);
      const [file] = res.json().data;
      expect(file.file_name).toBe(kept);
      expect(file.id).toMatch(/^[0-9a-f-]{36}\.pdf$/);
      const added = filesUnder(uploadDir).filter((p) => !before.includes(p));
      expect(added).toHaveLength(1);
      expect(added[0]!.endsWith(file.id)).toBe(true);
      expect(added[0]).not.toContain(kept);
      const row = await t.db.kysely.selectFrom('file_upload').selectAll().where('id', '=', file.id).executeTakeFirstOrThrow();
      const abs = resolve(uploadDir, row.path as string);
      expect(relative(uploadDir, abs).startsWith(`..${sep}`)).toBe(false);
      expect(readFileSync(abs).equals(PDF)).toBe(true);
      expect(existsSync(resolve(uploadDir, '../../etc/passwd.pdf'))).toBe(false);
    });

    it('a valid PDF and PNG: 200 with [{id, file_name, mime_type, size, url}]', async () => {
      const res = await upload([{ filename: 'ใบเสนอราคา.pdf', content: PDF }, { filename: 'logo.PNG', contentType: 'image/png', content: PNG }], { boundary: 'XyZ-boundary-0123456789' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.data).toEqual([
        expect.objectContaining({ id: expect.stringMatching(/\.pdf$/), file_name: 'ใบเสนอราคา.pdf', mime_type: 'application/pdf', size: PDF.length }),
        expect.objectContaining({ id: expect.stringMatching(/\.png$/), file_name: 'logo.PNG', mime_type: 'image/png', size: PNG.length }),
      ]);
      for (const f of body.data) expect(f.url).toBe(`/api/file/${f.id}`);
      expect(body.data[0].id).not.toBe(body.data[1].id);
    });

    it('the category defaults to "default"; a valid category is kept', async () => {
      const plain = (await upload([{ filename: 'a.pdf', content: PDF }])).json().data[0];
      const res = await upload([{ filename: 'b.pdf', content: PDF }], { url: '/api/file/upload/company_docs-2' });
      expect(res.statusCode, res.body).toBe(200);
      const named = res.json().data[0];
      const category = async (id: string) => (await t.db.kysely.selectFrom('file_upload').select('category').where('id', '=', id).executeTakeFirstOrThrow()).category;
      expect(await category(plain.id)).toBe('default');
      expect(await category(named.id)).toBe('company_docs-2');
    });

    it.each(['Invoices', 'bad%20cat', 'a.b', '..', '%2e%2e', 'x'.repeat(41), 'ไทย'])('category "%s" is refused, nothing stored', async (category) => {
      const before = await snapshot();
      const res = await upload([{ filename: 'a.pdf', content: PDF }], { url: `/api/file/upload/${category}` });
      expect([400, 404], res.body).toContain(res.statusCode);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('download', () => {
    let file: { id: string; file_name: string };

    beforeAll(async () => {
      const res = await upload([{ filename: 'สัญญา ฉบับจริง.pdf', content: PDF }]);
      expect(res.statusCode, res.body).toBe(200);
      file = res.json().data[0];
    });

    it('the uploader gets it as an attachment with its name, type and content', async () => {
      const res = await download(file.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const disposition = String(res.headers['content-disposition']);
      // the plain filename is ASCII only; the exact name travels in filename*
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; /);
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(file.file_name)}`);
      expect(res.rawPayload.equals(PDF)).toBe(true);
    });

    it('before any record references it, other users get 404', async () => {
      expect((await download(file.id, viewer.headers)).statusCode).toBe(404);
      expect((await download(file.id, outsider.headers)).statusCode).toBe(404);
    });

    describe('once an attachment of a company references it', () => {
      let attachmentId: number;

      beforeAll(async () => {
        const res = await t.app.inject({ method: 'POST', url: '/api/attachment', headers: t.headers, payload: { company_id: companyId, file: file.id, file_name: file.file_name, mime_type: 'application/pdf', size: PDF.length, description: 'สัญญา' } });
        expect(res.statusCode, res.body).toBe(201);
        attachmentId = res.json().data.id;
      });

      it('a user who can view companies gets it', async () => {
        const res = await download(file.id, viewer.headers);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-disposition']).toMatch(/^attachment;/);
        expect(res.rawPayload.equals(PDF)).toBe(true);
      });

      it('a user who cannot view companies gets 404', async () => {
        const res = await download(file.id, outsider.headers);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      });

      it('a user who cannot view companies does not get in by pointing their own avatar at the file', async () => {
        const patch = await t.app.inject({ method: 'PATCH', url: `/api/user_account/${outsider.id}`, headers: outsider.headers, payload: { user_avatar: file.id } });
        // a record may only point at a file its writer may already read
        expect(patch.statusCode, patch.body).toBe(400);
        expect(patch.json().error.details.fields).toEqual([expect.objectContaining({ field: 'user_avatar', code: 'file' })]);
        const res = await download(file.id, outsider.headers);
        expect(res.statusCode, 'a user can read any file whose id they know by setting it as their avatar').toBe(404);
      });

      it('once the attachment is archived, the viewer gets 404 again', async () => {
        const del = await t.app.inject({ method: 'DELETE', url: `/api/attachment/${attachmentId}`, headers: t.headers });
        expect(del.statusCode, del.body).toBe(200);
        expect((await download(file.id, viewer.headers)).statusCode).toBe(404);
        expect((await download(file.id)).statusCode).toBe(200); // still the uploader's
      });
    });

    it('an unknown or malformed id: 404; no token: 401', async () => {
      expect((await download('00000000-0000-4000-8000-000000000000.pdf')).statusCode).toBe(404);
      expect((await download('not-a-file')).statusCode).toBe(404);
      expect((await download('..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
      expect((await download(file.id, {})).statusCode).toBe(401);
    });
  });
});
