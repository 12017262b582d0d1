import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { AppError } from '../errors/app-error.ts';
import { principalOf } from '../auth/principal.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { parseId, printOptionsOf } from '../print/print-routes.ts';
import { readEmailBody } from '../mail/email-routes.ts';
import { Mailer, mailServerUnreachable, type MailSettings } from '../mail/mailer.ts';
import type { EtaxMaker } from './etax-maker.ts';
import { SIGNED_MESSAGES } from '../../engine/etax/etax-codes.ts';

/**
 * POST /api/{document}/{id}/etax-email: the document sent as e-Tax, with the email flag. The message carries
 * the PDF/A-3 with the (signed, when a certificate is configured) XML inside, as ETDA's "e-Tax Invoice by
 * Email" scheme asks, and goes in cc to the Revenue Department's timestamp service when ETAX_RD_EMAIL is set.
 * The body is the one of …/email (to, cc, subject, message, lang).
 */
export function registerEtaxEmailRoute(app: FastifyInstance, service: EntityService, contextOf: ContextOf, maker: EtaxMaker, options: { db: Kysely<any>; mail?: MailSettings }): void {
  const mailer = options.mail ? new Mailer(options.mail) : null;
  if (mailer) app.addHook('onClose', async () => mailer.close());
  for (const entity of service.registry.all().filter((e) => e.kind === 'document')) {
    app.post(`/api/${entity.name}/:id/etax-email`, async (request) => {
      const ctx = contextOf(request);
      const id = parseId((request.params as { id: string }).id);
      const body = readEmailBody(request.body);
      const o = printOptionsOf({ lang: body.lang });
      const f = await maker.files(entity, id, ctx, 'email', false);
      if (!mailer) throw new AppError('MAIL_NOT_CONFIGURED', 'Email is not set up on this server: set SMTP_URL and MAIL_FROM');
      const pdf = await maker.pdf(f, o.lang);
      const filename = f.xmlFileName.replace(/\.xml$/, '-etax.pdf');
      // the Revenue Department stamps tax documents; an invoice (380, a billing note) is not one
      const rd = SIGNED_MESSAGES.has(f.message) ? maker.settings.rdEmail : null;
      const cc = rd && !body.cc.includes(rd) && !body.to.includes(rd) ? [...body.cc, rd] : body.cc;
      try {
        await mailer.send({ to: body.to, cc, subject: body.subject || f.title, text: body.message || f.title, attachments: [{ filename, content: pdf, contentType: 'application/pdf' }] });
      } catch (err) {
        request.log.error({ err }, 'sending an e-Tax email failed');
        throw new AppError('MAIL_NOT_CONFIGURED', mailServerUnreachable(err)
          ? 'The mail server named in SMTP_URL could not be reached; nothing was sent, try again later'
          : 'The mail server did not accept the message; check SMTP_URL and MAIL_FROM');
      }
      const p = principalOf(ctx);
      await writeAudit(options.db, {
        action: 'email', userId: ctx.userId, username: p?.user.username ?? null, ip: ctx.ip, entity: entity.name, recordId: id,
        changes: { to: body.to, cc, attachment: filename, etax: true, signed: f.signed }, message: `emailed e-Tax ${filename} to ${[...body.to, ...cc].join(', ')}`,
      });
      return { success: true, data: { to: body.to, cc, attachment: filename, signed: f.signed, rd_email: rd } };
    });
  }
}
