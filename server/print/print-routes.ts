import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { systemContext, type RequestContext } from '../crud/access-policy.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { Database } from '../db/dialect-adapter.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { principalOf } from '../auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import { partyFields, partyLinkFields, renderDocumentPdf, stockPlaceFields, type DocumentPrint } from './document-pdf.ts';
import type { PrintOptions } from './print-format.ts';
import { countPrint } from './print-counter.ts';
import { parseCopies, type PrintLogo } from './print-extras.ts';
import { readLineReferences } from './line-references.ts';
import { promptPayForPrint } from './promptpay-qr.ts';
import { notePrintOf } from './note-references.ts';
import { findFile } from '../files/file-store.ts';
import type { FileStorage } from '../files/file-storage.ts';
import { siteSettings } from '../settings/site-settings.ts';

/** Where uploaded files (the company logo) are read from. */
export interface PrintFiles {
  db: Database;
  storage: FileStorage;
}

export interface PrintRouteOptions {
  db: Database;
  files?: PrintFiles;
}

/** A logo too large for a document header is left out rather than bloating every PDF. */
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/** The image an image field points at, or null (no file, not an image, too large, gone from the store). */
export async function readImage(files: PrintFiles | undefined, ref: unknown): Promise<PrintLogo | null> {
  if (!files || typeof ref !== 'string' || !ref) return null;
  const file = await findFile(files.db, ref);
  if (!file || !file.mime_type.startsWith('image/') || file.size > MAX_LOGO_BYTES) return null;
  const stream = await files.storage.get(file.path);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return { mime: file.mime_type, content: Buffer.concat(chunks) };
}

/** ?lang=th|en (default th) and ?be=1|0 (Buddhist-era years; default on in Thai). */
export function printOptionsOf(query: Record<string, unknown>): PrintOptions {
  const lang = query.lang ?? 'th';
  if (lang !== 'th' && lang !== 'en') throw new AppError('INVALID_QUERY', 'lang must be "th" or "en"');
  const be = query.be;
  if (be !== undefined && be !== '0' && be !== '1') throw new AppError('INVALID_QUERY', 'be must be 0 or 1');
  const copies = parseCopies(query.copies);
  if (copies && !copies.length) throw new AppError('INVALID_QUERY', 'copies must list original and/or copy, comma separated, at most 4 (copies=original,copy)');
  return { lang, ...(be === undefined ? {} : { buddhistEra: be === '1' }), ...(copies ? { copies } : {}) };
}

export function parseId(raw: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new AppError('INVALID_QUERY', 'The id must be a positive whole number');
  return Number(raw);
}

/**
 * Reads a document as the caller (row scope applies: a document they cannot
 * see is 404), then checks the flag, and renders it. The customer and the
 * issuing company are read as the system: the document names them, and a
 * printed document carries their address and tax id whatever the caller's
 * rights on those master-data screens. `read` is the portal's view-only copy
 * (portal-pdf.ts), which is not a print.
 */
export async function readDocument(service: EntityService, policy: PermissionPolicy, entity: EntitySchema, id: number, ctx: RequestContext, flag: 'print' | 'email' | 'read', files?: PrintFiles): Promise<DocumentPrint> {
  const row = await service.get(entity.name, id, ctx);
  policy.assertAllowed(ctx, entity, flag);
  const lineEntities: DocumentPrint['lineEntities'] = {};
  for (const [name, f] of Object.entries(entity.fields)) if (f.type === 'lines' && f.entity) lineEntities[name] = service.entity(f.entity);
  const links: DocumentPrint['links'] = {};
  const lookup = (n: string) => service.registry.get(n);
  for (const field of [...partyLinkFields(entity, lookup), ...stockPlaceFields(entity)]) {
    const target = field && entity.fields[field]?.entity;
    const linkId = field ? Number(row[field]) : NaN;
    if (!field || !target || !Number.isInteger(linkId) || linkId < 1) continue;
    links[field] = await service.get(target, linkId, systemContext).catch(() => null);
  }
  // line links (the product of each line) are shown by code and name; read as the system, like the parties
  const lineLinks: NonNullable<DocumentPrint['lineLinks']> = {};
  for (const [name, line] of Object.entries(lineEntities)) {
    const lines = (row[name] as Record<string, unknown>[] | undefined) ?? [];
    for (const [field, f] of Object.entries(line.fields)) {
      if (f.type !== 'link' || !f.entity || field === line.parent?.field) continue;
      const ids = [...new Set(lines.map((l) => Number(l[field])).filter((n) => Number.isInteger(n) && n > 0))];
      if (!ids.length) continue;
      const found = new Map<number, Record<string, unknown>>();
      for (const linkId of ids) {
        const r = await service.get(f.entity, linkId, systemContext).catch(() => null);
        if (r) found.set(linkId, r);
      }
      lineLinks[`${name}.${field}`] = found;
    }
  }
  const parties = partyFields(entity, lookup);
  const issuer = parties.issuer;
  const logo = entity.print?.logo && issuer ? await readImage(files, links[issuer]?.logo) : null;
  const taxInvoiceMode = entity.print?.taxInvoiceTitle ? (await siteSettings(service.db.kysely, service.registry)).tax_invoice : undefined;
  const lineRefs = await readLineReferences(service, entity, row);
  const promptpay = await promptPayForPrint(service, entity, row);
  const note = await notePrintOf(service, { entity, row });
  return { entity, row, lineEntities, links, parties, lineLinks, lineRefs, logo, taxInvoiceMode, promptpay, note };
}

/** A file name made only of characters every browser and mail client accepts. */
export function pdfFileName(entity: EntitySchema, row: Record<string, unknown>, id: number): string {
  const no = String(row[entity.numbering?.field ?? entity.titleField] ?? id).replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${entity.name}-${no}.pdf`;
}

/** GET /api/{document}/{id}/pdf for every entity of kind document. */
export function registerPrintRoutes(app: FastifyInstance, service: EntityService, policy: PermissionPolicy, contextOf: ContextOf, options: PrintRouteOptions): void {
  for (const entity of service.registry.all().filter((e) => e.kind === 'document')) {
    app.get(`/api/${entity.name}/:id/pdf`, async (request, reply) => {
      const ctx = contextOf(request);
      const id = parseId((request.params as { id: string }).id);
      const o = printOptionsOf(request.query as Record<string, unknown>);
      const doc = await readDocument(service, policy, entity, id, ctx, 'print', options.files);
      const pdf = await renderDocumentPdf(doc, o);
      // the limit counts prints per document for everyone; the caller's role decides how many are allowed
      const limit = entity.print?.limitByRole ? principalOf(ctx)?.role.production_report_print_times ?? null : null;
      const count = await countPrint(options.db, entity.name, id, limit);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="${pdfFileName(entity, doc.row, id)}"`);
      reply.header('x-print-count', String(count));
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    });
  }
}
