import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { principalOf } from '../auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import { bodyError } from '../crud/record-values.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { renderDocumentPdf } from '../print/document-pdf.ts';
import { parseId, pdfFileName, printOptionsOf, readDocument, type PrintFiles } from '../print/print-routes.ts';
import { Mailer, mailServerUnreachable, type MailSettings } from './mailer.ts';

export const MAX_RECIPIENTS = 20;
/** The spec's email length cap. */
export const MAX_ADDRESS = 320;
const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;
// a header value must stay on one line, or it could add headers of its own
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface EmailRouteOptions {
  /** Where the company logo is read from, as for prints. */
  files?: PrintFiles;
  db: Kysely<any>;
  /** Unset: the route answers MAIL_NOT_CONFIGURED. */
  mail?: MailSettings;
}

interface EmailBody { to: string[]; cc: string[]; subject?: string; message?: string; lang?: string }

function addresses(v: unknown, field: string, errors: FieldError[]): string[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  list.forEach((a, i) => {
    if (typeof a !== 'string' || a.length > MAX_ADDRESS || !ADDRESS.test(a)) {
      errors.push({ field: `${field}[${i}]`, code: 'format', message: `is not a valid email (at most ${MAX_ADDRESS} characters)` });
    } else out.push(a);
  });
  return out;
}

export function readEmailBody(body: unknown): EmailBody {
  const errors: FieldError[] = [];
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!['to', 'cc', 'subject', 'message', 'lang'].includes(k)) errors.push({ field: k, code: 'unknown_field', message: 'is not a field of an email' });
  const to = addresses(b.to, 'to', errors);
  const cc = addresses(b.cc, 'cc', errors);
  if (b.to === undefined || (Array.isArray(b.to) && b.to.length === 0)) errors.push({ field: 'to', code: 'required', message: 'is required' });
  if (to.length + cc.length > MAX_RECIPIENTS) errors.push({ field: 'to', code: 'max_items', message: `at most ${MAX_RECIPIENTS} recipients (to and cc together)` });
  if (b.subject !== undefined && (typeof b.subject !== 'string' || b.subject.length > 200 || CONTROL.test(b.subject))) errors.push({ field: 'subject', code: 'format', message: 'must be one line of at most 200 characters' });
  if (b.message !== undefined && (typeof b.message !== 'string' || b.message.length > 5000)) errors.push({ field: 'message', code: 'max_length', message: 'must be text of at most 5000 characters' });
  if (errors.length) throw bodyError(errors);
  return { to, cc, subject: b.subject as string | undefined, message: b.message as string | undefined, lang: b.lang as string | undefined };
}

/** POST /api/{document}/{id}/email: the document's PDF sent as an attachment. Sending does not count as a print. */
export function registerEmailRoutes(app: FastifyInstance, service: EntityService, policy: PermissionPolicy, contextOf: ContextOf, options: EmailRouteOptions): void {
  const mailer = options.mail ? new Mailer(options.mail) : null;
  if (mailer) app.addHook('onClose', async () => mailer.close());
  for (const entity of service.registry.all().filter((e) => e.kind === 'document')) {
    app.post(`/api/${entity.name}/:id/email`, async (request) => {
      const ctx = contextOf(request);
      const id = parseId((request.params as { id: string }).id);
      const body = readEmailBody(request.body);
      const o = printOptionsOf({ lang: body.lang });
      const doc = await readDocument(service, policy, entity, id, ctx, 'email', options.files);
      if (!mailer) throw new AppError('MAIL_NOT_CONFIGURED', 'Email is not set up on this server: set SMTP_URL and MAIL_FROM');
      const pdf = await renderDocumentPdf(doc, o);
      const title = `${entity.label[o.lang]} ${String(doc.row[entity.numbering?.field ?? entity.titleField] ?? id)}`;
      const filename = pdfFileName(entity, doc.row, id);
      try {
        await mailer.send({ to: body.to, cc: body.cc, subject: body.subject || title, text: body.message || title, attachments: [{ filename, content: pdf, contentType: 'application/pdf' }] });
      } catch (err) {
        request.log.error({ err }, 'sending an email failed');
        // nothing is recorded as sent: the audit row below is written only after the server accepted the message
        throw new AppError('MAIL_NOT_CONFIGURED', mailServerUnreachable(err)
          ? 'The mail server named in SMTP_URL could not be reached; nothing was sent, try again later'
          : 'The mail server did not accept the message; check SMTP_URL and MAIL_FROM');
      }
      const p = principalOf(ctx);
      await writeAudit(options.db, {
        action: 'email', userId: ctx.userId, username: p?.user.username ?? null, ip: ctx.ip, entity: entity.name, recordId: id,
        changes: { to: body.to, cc: body.cc, attachment: filename }, message: `emailed ${filename} to ${[...body.to, ...body.cc].join(', ')}`,
      });
      return { success: true, data: { to: body.to, cc: body.cc, attachment: filename } };
    });
  }
}
