/**
 * One of our documents as the ETDA e-Tax message describes it: parties, references, lines and totals,
 * read from the document row, its issuing company and its customer. Pure (no I/O): the server reads the
 * rows (server/etax/etax-source.ts) and etax-xml.ts writes the XML. Amounts stay satang (bigint).
 */
import type { EntitySchema } from '../schema/schema-types.ts';
import type { EtaxTypeCode } from '../schema/document-spec-types.ts';
import { allocate } from '../documents/document-math.ts';
import { parseDecimal, toDecimalString } from '../documents/decimal-value.ts';
import { ABB_SELLER_RULES, ETAX_OTHER_PURPOSE, ETAX_TYPES, ETAX_WARNING_TEXTS, provinceCode } from './etax-codes.ts';
import { taxInvoiceRole } from '../documents/tax-invoice-role.ts';
import { lineVatExempt } from '../documents/document-totals.ts';

type Row = Record<string, unknown>;

export interface EtaxAddress {
  /** The whole address on one line (a buyer's address may be given so: schematron *-BuyerTradeParty-007). */
  line: string | null;
  postcode: string | null;
  buildingNumber: string | null;
  /** TISI 1099 district (อำเภอ/เขต, 4 digits) and sub-district (ตำบล/แขวง, 6 digits) codes, when known. */
  cityCode: string | null;
  subDivisionCode: string | null;
  provinceCode: string | null;
}

export interface EtaxParty {
  name: string;
  /** schemeID: TXID = 13-digit tax id + 5-digit branch; NIDN = a person's 13-digit id; OTHR = none ("N/A"). */
  scheme: 'TXID' | 'NIDN' | 'OTHR';
  taxId: string;
  address: EtaxAddress;
}

export interface EtaxReference { id: string; date: string; typeCode: string }

export interface EtaxLine {
  no: number;
  productCode: string | null;
  name: string;
  qty: string;
  unit: string | null;
  price: bigint;
  /** Before VAT, and the VAT on it: the document's own totals spread over the lines, so they add up exactly. */
  net: bigint;
  vat: bigint;
  /** The line carries no VAT (its vat_type is exempt or zero-rated): written at rate 0. */
  exempt: boolean;
}

export interface EtaxDocument {
  typeCode: EtaxTypeCode | 'T07';
  name: string;
  id: string;
  issueDate: string;
  createdAt: string;
  purposeCode: string | null;
  purpose: string | null;
  note: string | null;
  seller: EtaxParty;
  buyer: EtaxParty;
  references: EtaxReference[];
  vatRate: string;
  lines: EtaxLine[];
  lineTotal: bigint;
  allowance: bigint;
  taxBasis: bigint;
  tax: bigint;
  grand: bigint;
  /** The part of taxBasis on lines that carry no VAT (0 when every line does). */
  exemptBasis: bigint;
  /** Debit and credit notes: the referenced invoices' value before VAT, and the note's difference to it. */
  original: bigint | null;
  difference: bigint | null;
}

export interface EtaxSource {
  entity: EntitySchema;
  row: Row;
  company: Row | null;
  customer: Row | null;
  /** Products of the lines by id (code and name). */
  products: Map<number, Row>;
  /** Documents a note corrects (their e-Tax type code, number, date and amount before VAT). */
  references: Array<EtaxReference & { amountBeforeVat: unknown }>;
  /** A note's reason in words (the value of `document.etax.purposeField`), when it has one. */
  reason?: string | null;
  /** When the XML is made (CreationDateTime), ISO text. */
  now: string;
  /** The site's tax_invoice setting, for a document that may also serve as a tax invoice (`etax.typeCodeWhen`). */
  taxInvoiceMode?: unknown;
}

/** Why a document cannot be an e-Tax message; the server answers these as 4xx with the Thai text. */
export class EtaxUnavailable extends Error {
  constructor(readonly kind: 'not_supported' | 'incomplete', readonly th: string, message: string) {
    super(message);
  }
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());
const satang = (v: unknown, field: string) => (v === null || v === undefined || v === '' ? 0n : parseDecimal(v as number | string, 2, field));

/** The field holding the document's date: the numbering's date field, else the first date field. */
export function documentDateField(entity: EntitySchema): string | null {
  return entity.numbering?.dateField ?? Object.keys(entity.fields).find((n) => entity.fields[n]!.type === 'date') ?? null;
}

export function documentNumber(entity: EntitySchema, row: Row): string {
  return str(row[entity.document?.etax?.numberField ?? entity.numbering?.field ?? entity.titleField]);
}

/** The e-Tax type code the document declares, or why it has none (schema key `document.etax`). */
export function etaxTypeOf(entity: EntitySchema, row: Row, issuer: Row | null = null, taxInvoiceMode: unknown = undefined): EtaxTypeCode {
  const spec = entity.document?.etax;
  if (!spec) throw new EtaxUnavailable('not_supported', `${entity.label.th}ไม่ใช่เอกสารตามมาตรฐาน e-Tax Invoice & e-Receipt ของ สพธอ. จึงส่งออกเป็น e-Tax ไม่ได้`, `${entity.label.en} is not a document of the ETDA e-Tax Invoice & e-Receipt standard`);
  for (const [field, values] of Object.entries(spec.notWhen ?? {})) {
    if (values.includes(str(row[field]))) {
      const f = entity.fields[field];
      const shown = f?.options?.find((o) => o.value === row[field])?.label.th ?? str(row[field]);
      throw new EtaxUnavailable('not_supported', `${entity.label.th}แบบ "${shown}" ส่งออกเป็น e-Tax ตามระบบนี้ไม่ได้ (มาตรฐานกำหนดเป็นเอกสารอีกประเภทหนึ่ง)`, `A ${entity.label.en} with ${field} "${str(row[field])}" is not exported as e-Tax here`);
    }
  }
  // a receipt that also serves as a tax invoice is one (T03), as its printed title says; a sale by its invoice_type
  const role = taxInvoiceRole(entity, row, issuer, taxInvoiceMode);
  const holds = (w: NonNullable<typeof spec.typeCodeWhen>[number]) => ('when' in w
    ? Object.entries(w.when).every(([field, values]) => values.includes(str(row[field])))
    : w.servesAsTaxInvoice === role);
  return spec.typeCodeWhen?.find(holds)?.typeCode ?? spec.typeCode;
}

function address(r: Row | null, line: string | null = null): EtaxAddress {
  const g = (k: string) => str(r?.[k]) || null;
  const first = g('address_line');
  const district = g('district_code') ?? g('district');
  const sub = g('sub_district_code') ?? g('sub_district');
  const whole = line ?? ([first, g('sub_district'), g('district'), g('province')].filter(Boolean).join(' ') || null);
  return {
    line: whole ? whole.slice(0, 256) : null,
    // a buyer's address typed in one line (a POS sale's buyer_address) ends with its postcode, as Thai addresses do
    postcode: g('postal_code') ?? whole?.match(/(?:^|\s)(\d{5})\s*$/)?.[1] ?? null,
    // "99/12 ถนน…": the house number is what comes before the first space
    buildingNumber: first?.match(/^\s*(?:เลขที่\s*)?(\d[\d/\-]*)/)?.[1] ?? null,
    cityCode: district && /^\d{4}$/.test(district) ? district : null,
    subDivisionCode: sub && /^\d{6}$/.test(sub) ? sub : null,
    provinceCode: provinceCode(r?.province_code ?? r?.province),
  };
}

function party(name: string, taxId: string, branch: string, person: boolean, addr: EtaxAddress): EtaxParty {
  if (!/^\d{13}$/.test(taxId)) return { name, scheme: 'OTHR', taxId: 'N/A', address: addr };
  if (person && !branch) return { name, scheme: 'NIDN', taxId, address: addr };
  return { name, scheme: 'TXID', taxId: taxId + (/^\d{5}$/.test(branch) ? branch : '00000'), address: addr };
}

/** The document as the e-Tax message states it; `cancel` makes the cancellation note (T07) of it instead. */
export function etaxDocumentOf(src: EtaxSource, cancel = false): EtaxDocument {
  const { entity, row, company, customer } = src;
  const typeCode = etaxTypeOf(entity, row, company, src.taxInvoiceMode);
  const id = documentNumber(entity, row);
  const dateField = documentDateField(entity);
  const issueDate = str(dateField ? row[dateField] : '').slice(0, 10);
  // an e-Tax document is an issued one: a draft may still change, a cancelled one is answered by its cancellation note
  const wf = entity.workflow;
  const state = wf ? str(row[wf.field]) : '';
  const cancelledTo = wf?.transitions.find((t) => t.action === (entity.document?.cancelAction ?? 'cancel'))?.to;
  if (!cancel && cancelledTo && state === cancelledTo) {
    throw new EtaxUnavailable('incomplete', `${entity.label.th}นี้ถูกยกเลิกแล้ว ส่งออกเป็น e-Tax ได้เฉพาะใบแจ้งยกเลิก (cancellation=1)`, `This ${entity.label.en} is cancelled: only its cancellation note can be exported (cancellation=1)`);
  }
  if (!id || !/^\d{4}-\d{2}-\d{2}$/.test(issueDate) || (wf && state === wf.initial)) {
    throw new EtaxUnavailable('incomplete', `${entity.label.th}นี้ยังไม่มีเลขที่หรือวันที่เอกสาร (ยังเป็นร่าง) ให้ออกเอกสารก่อน แล้วจึงส่งออกเป็น e-Tax`, `This ${entity.label.en} has no number or date yet (a draft): issue it first`);
  }
  const seller = party(str(company?.name_th) || str(company?.name_en), str(row.seller_tax_id) || str(company?.tax_id), str(row.seller_branch_code) || str(company?.branch_code), false, address(company));
  const buyerName = str(row.buyer_name) || str(customer?.name_th) || str(customer?.name_en);
  const buyerAddress = address(customer, str(row.buyer_address) || null);
  const buyer = party(buyerName, str(row.buyer_tax_id) || str(customer?.tax_id), str(row.buyer_branch_code) || str(customer?.branch_code), customer?.customer_type === 'individual', buyerAddress);
  const note = str(row.remark) || null;
  if (cancel) {
    return {
      typeCode: 'T07', name: ETAX_TYPES.T07.name, id: `${id}-C`.slice(0, 35), issueDate: src.now.slice(0, 10), createdAt: src.now,
      purposeCode: null, purpose: `ยกเลิก${ETAX_TYPES[typeCode].name} ${id}`, note, seller, buyer,
      references: [{ id, date: issueDate, typeCode }], vatRate: '0', lines: [], lineTotal: 0n, allowance: 0n, taxBasis: 0n, tax: 0n, grand: 0n, exemptBasis: 0n, original: null, difference: null,
    };
  }
  const isNote = typeCode === '80' || typeCode === '81';
  if (isNote && src.references.length === 0) {
    throw new EtaxUnavailable('incomplete', `${entity.label.th}นี้ไม่ได้อ้างอิงใบกำกับภาษี มาตรฐาน e-Tax กำหนดให้ใบเพิ่มหนี้/ใบลดหนี้ต้องระบุใบกำกับภาษีเดิม ให้สร้างจากใบกำกับภาษี`, `This ${entity.label.en} refers to no tax invoice, which the standard requires: make it from the tax invoice`);
  }
  const taxBasis = satang(row.amount_before_vat ?? row.subtotal, 'amount_before_vat');
  const tax = satang(row.vat_amount, 'vat_amount');
  const grand = satang(row.total_amount, 'total_amount');
  const allowance = satang(row.discount_amount, 'discount_amount');
  const vatRate = row.vat_type === 'none' ? '0' : str(row.vat_rate) || '0';
  const linesField = entity.document?.lines;
  const rows = ((linesField ? row[linesField] : null) as Row[] | null) ?? [];
  const weights = rows.map((l, i) => satang(l.amount, `${linesField}.${i}.amount`));
  const exempt = rows.map((l) => lineVatExempt(l));
  // VAT is spread over the lines that carry it; with VAT included, a line's net is its share of the total less its VAT
  const vats = allocate(tax, weights.map((w, i) => (exempt[i] ? 0n : w)));
  const nets = exempt.some(Boolean) && row.vat_type === 'include'
    ? allocate(grand, weights).map((g, i) => g - vats[i]!)
    : allocate(taxBasis, weights);
  const lines: EtaxLine[] = rows.map((l, i) => {
    const product = src.products.get(Number(l.product_id));
    const qty = l.qty === undefined || l.qty === null ? '1' : str(l.qty);
    return {
      no: i + 1, productCode: str(product?.code) || null,
      name: (str(l.description) || str(product?.name_th) || str(l.ref_doc) || entity.label.th).slice(0, 256),
      qty, unit: str(l.unit) || null, price: satang(l.price ?? l.amount, `${linesField}.${i}.price`), net: nets[i]!, vat: vats[i]!, exempt: exempt[i]!,
    };
  });
  const original = isNote ? src.references.reduce((a, r) => a + satang(r.amountBeforeVat, 'reference'), 0n) : null;
  const reason = isNote ? (str(src.reason) || note || `${ETAX_TYPES[typeCode].name}ตาม${src.references.map((r) => r.id).join(', ')}`) : null;
  return {
    typeCode, name: ETAX_TYPES[typeCode].name, id, issueDate, createdAt: src.now,
    purposeCode: isNote ? ETAX_OTHER_PURPOSE[typeCode] : null, purpose: reason ? reason.slice(0, 256) : null, note,
    seller, buyer,
    // only a note names the documents it corrects: on a tax invoice or a receipt ETDA reads a reference as
    // "this replaces a cancelled document" (schematron *-AdditionalReferencedDocument-001), which ours never are
    references: isNote ? src.references.map(({ id: rid, date, typeCode: t }) => ({ id: rid, date, typeCode: t })) : [],
    vatRate, lines, lineTotal: isNote ? (typeCode === '81' ? original! - taxBasis : original! + taxBasis) : taxBasis + allowance,
    allowance: isNote ? 0n : allowance, taxBasis, tax, grand, original, difference: isNote ? taxBasis : null,
    exemptBasis: lines.reduce((a, l) => (l.exempt ? a + l.net : a), 0n),
  };
}

/** Satang as the decimal text the XML carries ("1250.50"). */
export const amountText = (v: bigint) => toDecimalString(v, 2);

/** What ETDA's schematron will refuse in a document we still write: a rule id and its words (etax-codes.ts). */
export interface EtaxWarning { rule: string; th: string; en: string }

const RULE_PREFIX = { TaxInvoice: 'TIV', AbbreviatedTaxInvoice: 'ABB', Receipt: 'RCT', DebitCreditNote: 'DCN', Invoice: 'INV', CancellationNote: 'CLN' } as const;

/**
 * The schematron rules of the seller that our data may not meet (*-SellerTradeParty-005 to -012): the TISI
 * 1099 codes of the ตำบล and อำเภอ are known only when the company's sub-district and district fields hold
 * them. The endpoints pass these on (header x-etax-warnings) so the user learns it before the Revenue
 * Department does.
 */
export function etaxWarnings(doc: EtaxDocument): EtaxWarning[] {
  const p = RULE_PREFIX[ETAX_TYPES[doc.typeCode].message];
  const a = doc.seller.address;
  const failed: Array<keyof typeof ETAX_WARNING_TEXTS> = [];
  if (!/^\d{18}$/.test(doc.seller.taxId)) failed.push('SellerTradeParty-005');
  if (!a.postcode || !/^\d{5}$/.test(a.postcode)) failed.push('SellerTradeParty-007');
  if (!a.buildingNumber) failed.push('SellerTradeParty-009');
  if (!a.cityCode) failed.push('SellerTradeParty-010');
  if (!a.subDivisionCode) failed.push('SellerTradeParty-011');
  if (!a.provinceCode) failed.push('SellerTradeParty-012');
  return failed.map((r) => ({ rule: `${p}-${p === 'ABB' ? ABB_SELLER_RULES[r] : r}`, ...ETAX_WARNING_TEXTS[r] }));
}
