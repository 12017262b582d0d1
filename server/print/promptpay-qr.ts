import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { promptPayIdOf, promptPayPayload, type PromptPayIdType } from '../../engine/documents/promptpay-payload.ts';
import { parseDecimal, toNumber } from '../../engine/documents/decimal-value.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { systemContext } from '../crud/access-policy.ts';
import { AppError } from '../errors/app-error.ts';
import { doneOf } from '../documents/document-progress.ts';
import { saleDueSatang } from './sale-due.ts';

type Row = Record<string, unknown>;

export interface PromptPayQr {
  payload: string;
  /** Baht, 2 decimals. */
  amount: number;
  id_type: PromptPayIdType;
}

/**
 * What is still due on a document, in satang: what the customer pays (its
 * net amount when it has one, else its total) less what posted documents made
 * from it by amount (receipts from a billing note) have taken from its lines.
 * A document in a final state (paid, cancelled) has nothing due.
 */
export async function amountDueSatang(service: EntityService, entity: EntitySchema, row: Row): Promise<number> {
  const state = entity.workflow?.states.find((s) => s.value === row[entity.workflow!.field]);
  // a draft may still change and asks for nothing yet; a final state (paid, cancelled) has nothing due
  if (state?.final || (entity.workflow && row[entity.workflow.field] === entity.workflow.initial)) return 0;
  const base = entity.fields.net_amount && row.net_amount !== null && row.net_amount !== undefined ? row.net_amount : row.total_amount;
  if (base === null || base === undefined || base === '') return 0;
  let due = Number(parseDecimal(base as number | string, 2, 'total_amount'));
  const lines = entity.document?.lines ? ((row[entity.document.lines] as Row[] | undefined) ?? []) : [];
  const ids = lines.map((l) => Number(l.id)).filter((n) => Number.isInteger(n) && n > 0);
  for (const target of service.registry.all()) {
    if (!target.document?.from?.some((f) => f.source === entity.name && f.measure === 'amount')) continue;
    for (const done of (await doneOf(service.db.kysely, entity.name, target.name, ids)).values()) due -= done;
  }
  // never more than is still owed of the sale it belongs to, whichever document took the money (issue 47 §2)
  const sale = await saleDueSatang(service, entity, row);
  if (sale !== null) due = Math.min(due, sale);
  return Math.max(0, due);
}

const noId = () => new AppError('NOT_FOUND', 'The issuing company has no PromptPay id', undefined, { reason: 'promptpay_id' });

/** The QR of a document as the caller may read it; 404 without a PromptPay id, 409 with nothing due. */
export async function promptPayOf(service: EntityService, entity: EntitySchema, row: Row): Promise<PromptPayQr> {
  const issuerField = Object.entries(entity.fields).find(([, f]) => f.type === 'link' && f.entity && service.registry.get(f.entity)?.access?.companyField === 'id')?.[0];
  const companyId = issuerField ? Number(row[issuerField]) : NaN;
  // the company is read as the system: the document names it, as on the print
  const company = Number.isInteger(companyId) && companyId > 0 ? await service.get(service.registry.get(entity.fields[issuerField!]!.entity!)!.name, companyId, systemContext).catch(() => null) : null;
  if (!company || !promptPayIdOf(company.promptpay_id)) throw noId();
  const satang = await amountDueSatang(service, entity, row);
  if (satang <= 0) throw new AppError('CONFLICT', 'Nothing is due on this document (a draft, paid, or settled through another document of its sale): it has no PromptPay QR', undefined, { reason: 'nothing_due' });
  const number = row[entity.numbering?.field ?? entity.titleField];
  const { payload, idType } = promptPayPayload(String(company.promptpay_id), satang, number === null || number === undefined ? null : String(number));
  return { payload, amount: toNumber(BigInt(satang)), id_type: idType };
}

/** The QR for a print, or null when the document has none to show (no id, nothing due). */
export async function promptPayForPrint(service: EntityService, entity: EntitySchema, row: Row): Promise<(PromptPayQr & { image: string }) | null> {
  if (!entity.print?.promptpay) return null;
  try {
    const qr = await promptPayOf(service, entity, row);
    return { ...qr, image: await QRCode.toDataURL(qr.payload, { errorCorrectionLevel: 'M', margin: 2, width: 300 }) };
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/**
 * A company's promptpay_id (the field the QR reads) must be an id PromptPay
 * takes: the schema's pattern lets 13 digits through, this also checks a tax
 * id's check digit, in the write's transaction (a refused write stores nothing).
 */
export function installPromptPayIdCheck(service: EntityService): void {
  service.onWrite(async (_trx, e) => {
    const v = e.after?.promptpay_id;
    if (v === null || v === undefined || v === '' || promptPayIdOf(v)) return;
    throw new AppError('VALIDATION_FAILED', 'promptpay_id: a 13-digit tax id with its check digit, or a 10-digit mobile number', {
      fields: [{ field: 'promptpay_id', code: 'promptpay_id', message: 'must be a valid 13-digit tax id or a 10-digit mobile number (06, 08, 09)' }],
    });
  }, (entity) => !!entity.fields.promptpay_id);
}

/**
 * GET /api/{document}/{id}/promptpay for documents with print.promptpay:
 * { payload, amount, id_type }. Read like the document itself (view flag and
 * row scope: a portal customer reaches only their own bills).
 */
export function registerPromptPayRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf, parseId: (raw: string) => number): void {
  for (const entity of service.registry.all().filter((e) => e.kind === 'document' && e.print?.promptpay)) {
    app.get(`/api/${entity.name}/:id/promptpay`, async (request) => {
      const ctx = contextOf(request);
      const row = await service.get(entity.name, parseId((request.params as { id: string }).id), ctx);
      return { success: true, data: await promptPayOf(service, entity, row) };
    });
  }
}
