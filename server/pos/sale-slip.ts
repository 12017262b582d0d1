import type { FastifyInstance } from 'fastify';
import { documentTotals, lineVatExempt } from '../../engine/documents/document-totals.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { systemContext } from '../crud/access-policy.ts';
import { pdfMake } from '../print/pdf-fonts.ts';
import { FONT_THAI, scriptRuns } from '../print/thai-text.ts';
import QRCode from 'qrcode';
import { promptPayIdOf, promptPayPayload } from '../../engine/documents/promptpay-payload.ts';
import { parseDecimal } from '../../engine/documents/decimal-value.ts';
import { branchText } from '../../engine/documents/branch-text.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { principalOf } from '../auth/principal.ts';
import { refundKeyOf, withSupervisor } from './supervisor-pin.ts';
import { countSlipPrint } from './slip-prints.ts';

type Row = Record<string, unknown>;

/** 80 mm paper is 226.8 points wide; a slip printer prints about 72 mm of it. */
const WIDTH = 226.8;
const money = (v: unknown) => Number(v ?? 0).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const qtyText = (v: unknown) => Number(v ?? 0).toLocaleString('en-US', { maximumFractionDigits: 4 });
const text = (s: string, opts: Row = {}) => ({ text: scriptRuns(s, Boolean(opts.bold)), ...opts });
const pair = (label: string, value: string, bold = false) => ({ columns: [text(label, { bold }), { ...text(value, { bold }), alignment: 'right', width: 'auto' }], columnGap: 4 });

const TITLES: Record<string, string> = {
  abbreviated: 'ใบกำกับภาษีอย่างย่อ / ใบเสร็จรับเงิน',
  full: 'ใบกำกับภาษี / ใบเสร็จรับเงิน',
  none: 'ใบเสร็จรับเงิน',
};

/**
 * The PromptPay QR a slip carries, or null (issue 47 §2: a QR asks only for what is owed). Its amount is what is
 * still to pay of the sale: the total less the money the sale kept (its payments less the change). A sale stored
 * at the register is paid in full (the route refuses less), so its slip has no QR: a PromptPay or transfer payment
 * on it was seen arriving before the sale was stored, and a QR would ask the customer to pay twice. A refunded sale
 * has nothing to pay. The id is the issuing company's `promptpay_id` (the money is the seller's, whichever method
 * took it); without one, no QR. The reference is the bill number.
 */
export async function slipPromptPay(order: Row, seller: Row | undefined): Promise<{ payload: string; image: string; satang: number } | null> {
  if (order.status === 'refunded') return null;
  const satangOf = (v: unknown) => Number(parseDecimal((v ?? 0) as number | string, 2, 'amount'));
  const payments = ((order.payments as Row[] | undefined) ?? []).filter(Boolean);
  const kept = payments.reduce((sum, p) => sum + satangOf(p.amount), 0) - satangOf(order.change_amount);
  const satang = satangOf(order.total_amount) - kept;
  if (satang <= 0) return null;
  if (!promptPayIdOf(seller?.promptpay_id)) return null;
  const { payload } = promptPayPayload(String(seller!.promptpay_id), satang, order.doc_no ? String(order.doc_no) : null);
  return { payload, satang, image: await QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 2, width: 300 }) };
}

/**
 * The slip's date and time as a Thai reader expects them: the day of the sale (its `doc_date`, a business day)
 * in the Buddhist era (29/11/2569) and the time the sale was stored on the business's clock (BUSINESS_TIME_ZONE),
 * never the UTC clock (issue 47 §6: a Bangkok date beside a UTC time was 7 hours off all day).
 */
export function slipDateTime(docDate: unknown, createdAt: unknown, timeZone = businessClock.timeZone): string {
  const at = new Date(String(createdAt ?? ''));
  const when = Number.isNaN(at.getTime()) ? businessClock.now() : at;
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(when).map((p) => [p.type, p.value]));
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(docDate ?? ''));
  const [y, mo, d] = m ? [Number(m[1]), m[2]!, m[3]!] : [Number(parts.year), parts.month!, parts.day!];
  return `${d}/${mo}/${y + 543} ${parts.hour}:${parts.minute}`;
}

/** The seller's address on one line (a full tax invoice must carry it, s. 86/4). */
export function sellerAddress(seller: Row | undefined): string {
  if (!seller) return '';
  return ['address_line', 'sub_district', 'district', 'province', 'postal_code'].map((k) => seller[k]).filter((v) => v !== null && v !== undefined && v !== '').map(String).join(' ');
}

/** " (สำนักงานใหญ่)" or " (สาขาที่ 00001 …)" after a tax id, nothing without a branch code. */
const withBranch = (code: unknown, name: unknown): string => { const b = branchText(code, name, 'th'); return b ? ` (${b})` : ''; };

/** The slip of a sale, as a pdfmake document: seller, number, lines, totals with VAT included, payments and change. */
export function slipDocument(order: Row, seller: Row | undefined, terminal: Row | undefined, names: Map<number, string>, methods: Map<number, string>, qr: { image: string; satang: number } | null = null, copy = 0): object {
  const form = String(order.invoice_type ?? 'none');
  const items = (order.items as Row[] | undefined) ?? [];
  const payments = (order.payments as Row[] | undefined) ?? [];
  const content: object[] = [
    text(String(seller?.name_th ?? ''), { bold: true, alignment: 'center', fontSize: 10 }),
    ...(seller?.tax_id ? [text(`เลขประจำตัวผู้เสียภาษี ${String(seller.tax_id)}${withBranch(seller.branch_code, seller.branch_name)}`, { alignment: 'center' })] : []),
    // a full tax invoice names the seller's address (s. 86/4); the abbreviated form does not need it
    ...(form === 'full' && sellerAddress(seller) ? [text(sellerAddress(seller), { alignment: 'center' })] : []),
    ...(terminal ? [text(`จุดขาย ${String(terminal.name ?? terminal.code ?? '')}${terminal.rd_pos_no ? ` (POS No. ${String(terminal.rd_pos_no)})` : ''}`, { alignment: 'center' })] : []),
    text(TITLES[form] ?? TITLES.none!, { bold: true, alignment: 'center', margin: [0, 4, 0, 2] }),
    // a print after the first is a copy, marked as the register marks its reprint
    ...(copy > 0 ? [text(`*** สำเนา ครั้งที่ ${copy} ***`, { bold: true, alignment: 'center', margin: [0, 0, 0, 2] })] : []),
    ...(order.tax_invoice_no ? [pair('เลขที่ใบกำกับภาษี', String(order.tax_invoice_no))] : []),
    pair('เลขที่บิล', String(order.doc_no ?? '')),
    pair('วันที่', slipDateTime(order.doc_date, order.created_at)),
    ...(form === 'full' ? [text(`ผู้ซื้อ ${String(order.buyer_name ?? '')}`), text(`เลขประจำตัวผู้เสียภาษี ${String(order.buyer_tax_id ?? '')}${withBranch(order.buyer_branch_code, null)}`), ...(order.buyer_address ? [text(String(order.buyer_address))] : [])] : []),
    { canvas: [{ type: 'line', x1: 0, y1: 2, x2: WIDTH - 16, y2: 2, lineWidth: 0.5, dash: { length: 2 } }], margin: [0, 2, 0, 2] },
  ];
  for (const l of items) {
    const name = names.get(Number(l.product_id)) ?? String(l.description ?? '');
    content.push(text(lineVatExempt(l) ? `${name} (ยกเว้น VAT)` : name));
    content.push(pair(`  ${qtyText(l.qty)} × ${money(l.price)}`, money(Number(l.qty) * Number(l.price))));
    if (Number(l.discount_amount ?? 0) > 0) content.push(pair('  ส่วนลดโปรโมชั่น', `-${money(l.discount_amount)}`));
  }
  content.push({ canvas: [{ type: 'line', x1: 0, y1: 2, x2: WIDTH - 16, y2: 2, lineWidth: 0.5, dash: { length: 2 } }], margin: [0, 2, 0, 2] });
  content.push(pair('รวมเป็นเงิน', money(order.subtotal)));
  if (Number(order.discount_amount ?? 0) > 0) content.push(pair('ส่วนลดท้ายบิล', `-${money(order.discount_amount)}`));
  content.push(pair('ยอดสุทธิ', money(order.total_amount), true));
  // the exempt lines' part of the total (after their share of the bill discount): no VAT is in it
  const exempt = items.some(lineVatExempt)
    ? documentTotals(order, items, String(order.doc_date ?? '')).items.reduce((a, t, i) => (lineVatExempt(items[i]!) ? a + t.total_share : a), 0)
    : 0;
  if (exempt > 0) content.push(pair('มูลค่าสินค้ายกเว้นภาษี', money(exempt)));
  content.push(pair(exempt > 0 ? 'มูลค่าสินค้ามีภาษีก่อนภาษี' : 'มูลค่าก่อนภาษี', money(Math.round((Number(order.amount_before_vat) - exempt) * 100) / 100)));
  content.push(pair(`ภาษีมูลค่าเพิ่ม ${Number(order.vat_rate ?? 7)}%`, money(order.vat_amount)));
  content.push(text('(ราคารวมภาษีมูลค่าเพิ่มแล้ว)', { alignment: 'right' }));
  for (const p of payments) {
    content.push(pair(methods.get(Number(p.payment_method_id)) ?? 'ชำระเงิน', money(p.amount)));
    if (p.reference) content.push(text(`  อ้างอิง ${String(p.reference)}`));
  }
  content.push(pair('เงินทอน', money(order.change_amount), true));
  // a partial return (server/pos/sale-return.ts) leaves the sale as sold; the slip says what went back
  if (Number(order.returned_amount ?? 0) > 0 && order.status !== 'refunded') content.push(pair('คืนสินค้าแล้ว', `-${money(order.returned_amount)}`));
  if (order.status === 'refunded') content.push(text('*** ยกเลิก/คืนเงินแล้ว ***', { bold: true, alignment: 'center', margin: [0, 4, 0, 0] }));
  if (qr) {
    content.push(text('สแกนจ่ายด้วยพร้อมเพย์', { bold: true, alignment: 'center', margin: [0, 6, 0, 0] }));
    content.push({ image: qr.image, width: 120, alignment: 'center' });
    content.push(text(`ยอดชำระ ${money(qr.satang / 100)} บาท`, { alignment: 'center' }));
  }
  content.push(text('ขอบคุณที่ใช้บริการ', { alignment: 'center', margin: [0, 6, 0, 0] }));
  return {
    pageSize: { width: WIDTH, height: 'auto' }, pageMargins: [8, 8, 8, 8],
    defaultStyle: { font: FONT_THAI, fontSize: 8, lineHeight: 1.1 },
    info: { title: `${TITLES[form] ?? ''} ${String(order.doc_no ?? '')}` },
    content,
  };
}

/**
 * GET /api/{sale}/{id}/slip: the 80 mm slip of a sale (document.sale) as a PDF, in Thai, VAT included: an
 * abbreviated or full tax invoice, or a receipt, as the sale was issued. Needs the print flag on the entity.
 * The first print is the original; every later one (and the register's reprints, counted with it: slip-prints.ts)
 * is a copy, marked สำเนา ครั้งที่ N, which a role without the refund key prints only with a supervisor's PIN
 * (x-supervisor, x-supervisor-pin; else 403 `supervisor_needed`, not counted), as POST …/reprint.
 */
export function registerSlipRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all().filter((e: EntitySchema) => e.document?.sale)) {
    app.get(`/api/${entity.name}/:id/slip`, async (request, reply) => {
      const ctx = contextOf(request);
      const e = service.entity(entity.name);
      service.policy.assertAllowed(ctx, e, 'print');
      const id = parseRecordId((request.params as { id: string }).id);
      if (id === null) throw new AppError('NOT_FOUND', `${e.label.en} does not exist`);
      const order = await service.get(e.name, id, ctx);
      const key = refundKeyOf(e);
      const approved = key ? await withSupervisor(service, request, ctx, e, key, 'copy of the slip (PDF)', id) : ctx;
      const copy = (await countSlipPrint(service.db, e.name, id, { uncounted: 0, mayCopy: !key || service.policy.can(approved, key, 'edit') })) - 1;
      if (copy > 0) await writeAudit(service.db.kysely, { action: 'reprint', userId: ctx.userId, username: principalOf(ctx)?.user.username ?? null, ip: ctx.ip, entity: e.name, recordId: id, message: `copy ${copy} of ${String(order.doc_no ?? id)} (PDF)` });
      const read = async (entityName: string | undefined, rowId: unknown) => (entityName && rowId ? service.get(entityName, Number(rowId), systemContext).catch(() => undefined) : undefined);
      const sale = e.document!.sale!;
      const [seller, terminal] = await Promise.all([read(fieldOf(e, 'your_company_id')?.entity, order.your_company_id), read(fieldOf(e, sale.terminal)?.entity, order[sale.terminal])]);
      const names = new Map<number, string>();
      for (const l of (order.items as Row[]) ?? []) if (l.description) names.set(Number(l.product_id), String(l.description));
      const methods = new Map<number, string>();
      const methodEntity = fieldOf(service.entity(fieldOf(e, sale.payments)!.entity!), 'payment_method_id')?.entity;
      for (const p of (order[sale.payments] as Row[]) ?? []) {
        const m = await read(methodEntity, p.payment_method_id);
        if (m) methods.set(Number(p.payment_method_id), String(m.name_th ?? m.code));
      }
      const qr = await slipPromptPay(order, seller);
      const pdf = await pdfMake().createPdf(slipDocument(order, seller, terminal, names, methods, qr, copy)).getBuffer();
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="${e.name}-${String(order.doc_no ?? id).replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf"`);
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    });
  }
}
