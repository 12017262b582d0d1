import { PDFDocument } from 'pdf-lib';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { pdfMake } from './pdf-fonts.ts';
import { amountInWords, COPY_MARK, formatDate, formatMoney, formatQuantity, type PrintOptions } from './print-format.ts';
import { scriptRuns } from './thai-text.ts';
import type { LineReference } from './line-references.ts';
import { withholdingDefinition } from './withholding-pdf.ts';
import { copyMarkNode, logoNode, printTitle, signatureNode, type PrintLogo } from './print-extras.ts';
import { branchText } from '../../engine/documents/branch-text.ts';
import type { NotePrint } from './note-references.ts';
import { noteReferenceBlock, noteValuesTable } from './note-block.ts';

type Row = Record<string, unknown>;

/** The totals block, in print order; only the fields a document has are shown. */
export const TOTAL_FIELDS = ['subtotal', 'discount_amount', 'amount_before_vat', 'vat_amount', 'total_amount', 'wht_amount', 'net_amount'] as const;
/** The amount written in words: the grand total, or what is left to pay when there is no grand total. */
const WORDS_FIELDS = ['total_amount', 'net_amount', 'amount_before_vat', 'subtotal'];

const WORDS = {
  th: { taxId: 'เลขประจำตัวผู้เสียภาษี', no: 'ลำดับ', yes: 'ใช่', noValue: 'ไม่ใช่', page: 'หน้า', refNo: 'เลขที่เอกสาร', refDate: 'ลงวันที่', refDue: 'ครบกำหนด', payment: 'การชำระเงิน', phone: 'โทร', email: 'อีเมล', bank: 'บัญชีธนาคาร', continued: 'ต่อ' },
  en: { taxId: 'Tax ID', no: 'No.', yes: 'Yes', noValue: 'No', page: 'Page', refNo: 'Document no.', refDate: 'Dated', refDue: 'Due', payment: 'Payment', phone: 'Tel.', email: 'E-mail', bank: 'Bank account', continued: 'continued' },
};

export interface DocumentPrint {
  entity: EntitySchema;
  /** The document as EntityService.get answers it, lines included. */
  row: Row;
  /** Schemas of the line entities, by lines field name. */
  lineEntities: Record<string, EntitySchema>;
  /** The rows behind link fields (customer, issuing company), by field name. */
  links: Record<string, Row | null>;
  /** Which of those links is the counterparty and which the issuing company (partyFields). */
  parties: { party?: string; issuer?: string };
  /** What a line's link shows instead of its id ("P-001 ฟิล์มยืด"), by "lines field.link field" and id. */
  lineLinks?: Record<string, Map<number, Row>>;
  /** The document each line refers to (lines with print.references), by lines field and line index. */
  lineRefs?: Record<string, Map<number, LineReference>>;
  /** The issuing company's logo, when the schema's print.logo asks for it and the company has one. */
  logo?: PrintLogo | null;
  /** The PromptPay QR of the amount still due (print.promptpay), as a PNG data URL with what it asks. */
  promptpay?: { payload: string; amount: number; image: string } | null;
  /** The site's tax_invoice setting (full / abbreviated): decides a receipt's tax-invoice title. */
  taxInvoiceMode?: unknown;
  /** A debit or credit note's original invoice, values and reason (s. 86/10), read by notePrintOf. */
  note?: NotePrint | null;
  /** Another title and number than the schema's (the e-Tax PDF of a POS sale shows its tax invoice). */
  heading?: { title: string; number: string } | null;
}

/** A linked row as a line shows it: its code and its name in the print's language. */
export function linkText(r: Row, lang: 'th' | 'en'): string {
  const name = (lang === 'en' ? r.name_en || r.name_th : r.name_th || r.name_en) ?? r.name ?? r.title ?? '';
  return [r.code, name].filter((x) => x !== null && x !== undefined && x !== '').map(String).join(' ');
}

type Lookup = (name: string) => EntitySchema | undefined;
const isParty = (lookup: Lookup, name: string | undefined) => !!name && lookup(name)?.party === true;
const isCompany = (lookup: Lookup, name: string | undefined) => !!name && lookup(name)?.access?.companyField === 'id';

/** Every link field to a counterparty (schema key `party`) or the issuing company (`access.companyField: "id"`): a 50 ทวิ names a supplier or a customer. */
export function partyLinkFields(entity: EntitySchema, lookup: Lookup): string[] {
  return Object.entries(entity.fields).filter(([, f]) => f.type === 'link' && (isParty(lookup, f.entity) || isCompany(lookup, f.entity))).map(([n]) => n);
}

/** A stock document's places (schema key `document.stock`: inventory, location and a transfer's destination), printed in its header. */
export function stockPlaceFields(entity: EntitySchema): string[] {
  const st = entity.document?.stock;
  return st ? [st.inventory, st.location, st.toInventory, st.toLocation].filter((n): n is string => !!n && entity.fields[n]?.type === 'link') : [];
}

/** Which link field names the counterparty and which the issuing company, from the linked entities' schema keys (no entity named here). */
export function partyFields(entity: EntitySchema, lookup: Lookup): { party?: string; issuer?: string } {
  const links = Object.entries(entity.fields).filter(([, f]) => f.type === 'link');
  return {
    party: links.find(([, f]) => isParty(lookup, f.entity))?.[0],
    issuer: links.find(([, f]) => isCompany(lookup, f.entity))?.[0],
  };
}

const text = (s: string, extra: object = {}) => ({ text: scriptRuns(s), ...extra });
const bold = (s: string, extra: object = {}) => ({ text: scriptRuns(s, true), ...extra });

function cellValue(f: FieldDef | undefined, v: unknown, o: PrintOptions): string {
  if (v === null || v === undefined) return '';
  switch (f?.type) {
    case 'money': return formatMoney(v);
    // a quantity shows its real decimals ("100", "2.5"), up to its scale
    case 'decimal': return formatQuantity(v, f.scale ?? 0);
    case 'date': case 'datetime': return formatDate(v, o);
    case 'enum': return f.options?.find((x) => x.value === v)?.label[o.lang] ?? String(v);
    case 'boolean': return v ? WORDS[o.lang].yes : WORDS[o.lang].noValue;
    default: return typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}

function partyBlock(r: Row | null | undefined, o: PrintOptions, contacts = false): string[] {
  if (!r) return [];
  const w = WORDS[o.lang];
  const name = String((o.lang === 'en' ? r.name_en || r.name_th : r.name_th || r.name_en) ?? r.name ?? '');
  // the postcode stays on the province's line (a no-break space); a document in English prints the party's
  // English address when it has one (issue 47 §4: addresses follow the language chosen)
  const address = o.lang === 'en' && r.address_en ? String(r.address_en)
    : ['address_line', 'sub_district', 'district', 'province'].map((k) => r[k]).filter(Boolean).join(' ') + (r.postal_code ? `\u00A0${r.postal_code}` : '');
  const branch = branchText(r.branch_code, r.branch_name, o.lang) ?? '';
  const tax = r.tax_id ? `${w.taxId} ${r.tax_id}${branch ? ` (${branch})` : ''}` : branch;
  // the issuer's phone, e-mail and bank account, on every document (issue 47 §4)
  const reach = contacts ? [r.phone ? `${w.phone} ${r.phone}` : '', r.email ? `${w.email} ${r.email}` : ''].filter(Boolean).join('  ') : '';
  const bank = contacts && r.bank_account_no ? `${w.bank} ${[r.bank_name, r.bank_account_no, r.bank_account_name].filter(Boolean).join(' ')}` : '';
  return [name, address.trim(), tax, reach, bank].filter(Boolean);
}

function linesTable(name: string, doc: DocumentPrint, o: PrintOptions) {
  const line = doc.lineEntities[name]!;
  const replaced = line.print?.references?.replaces ?? [];
  const cols = (line.list?.columns ?? Object.keys(line.fields)).filter((c) => c !== line.parent?.field && c !== 'line_no' && line.fields[c]?.type !== 'lines' && !replaced.includes(c));
  const numeric = (c: string) => ['money', 'decimal', 'integer'].includes(line.fields[c]?.type ?? '');
  const rows = (doc.row[name] as Row[] | undefined) ?? [];
  // a column no line fills (an empty รายละเอียด) is left out: its width goes to the others (the product name)
  const filled = cols.filter((c) => numeric(c) || rows.some((r) => r[c] !== null && r[c] !== undefined && r[c] !== ''));
  cols.splice(0, cols.length, ...(filled.length ? filled : cols));
  const w = WORDS[o.lang];
  // the referred document's number, date and due date; a line that refers to nothing shows its free text instead
  const refCells = (r: Row, i: number) => {
    if (!line.print?.references) return [];
    const ref = doc.lineRefs?.[name]?.get(i);
    const typed = (t: string) => replaced.find((c) => line.fields[c]?.type === t);
    const dateCol = typed('date');
    const noCol = replaced.find((c) => c !== dateCol && ['string', 'text'].includes(line.fields[c]?.type ?? ''));
    const dateOpts = { ...o };
    const nw = { noWrap: true };
    // a typed reference is free text and may be long Thai: it wraps between words (a number or code in it
    // stays whole through scriptRuns); kept on one line it ran past the page and was cut mid-word
    return ref
      ? [text(String(ref.number ?? ''), nw), text(formatDate(ref.date, dateOpts), nw), text(formatDate(ref.due, dateOpts), nw)]
      : [text(noCol ? String(r[noCol] ?? '') : ''), text(dateCol ? formatDate(r[dateCol], dateOpts) : '', nw), text('')];
  };
  // in English, a word the line copied from a linked record (a product's unit, ม้วน) prints as that record's
  // English word (its <field>_en, roll) while the line still says what the record says
  const linkFields = Object.keys(line.fields).filter((f) => line.fields[f]?.type === 'link');
  const englishOf = (c: string, r: Row): string | null => {
    if (o.lang !== 'en' || line.fields[c]?.type !== 'string' || r[c] === null || r[c] === undefined || r[c] === '') return null;
    for (const f of linkFields) {
      const rec = doc.lineLinks?.[`${name}.${f}`]?.get(Number(r[f]));
      if (rec && rec[c] === r[c] && typeof rec[`${c}_en`] === 'string' && rec[`${c}_en`]) return String(rec[`${c}_en`]);
    }
    return null;
  };
  const refHead = line.print?.references ? [bold(w.refNo), bold(w.refDate), bold(w.refDue)] : [];
  const body = [
    [bold(w.no), ...refHead, ...cols.map((c) => bold(line.fields[c]?.label[o.lang] ?? c, numeric(c) ? { alignment: 'right' } : {}))],
    ...rows.map((r, i) => [text(String(i + 1)), ...refCells(r, i), ...cols.map((c) => {
      const linked = line.fields[c]?.type === 'link' ? doc.lineLinks?.[`${name}.${c}`]?.get(Number(r[c])) : undefined;
      return text(linked ? linkText(linked, o.lang) : englishOf(c, r) ?? cellValue(line.fields[c], r[c], o), numeric(c) ? { alignment: 'right' } : {});
    })]),
  ];
  // free text takes what is left of the width, so a long Thai description wraps inside its cell
  // and so does a linked name (the product): an 'auto' column squeezed by the numbers would break it letter by letter
  const widths = ['auto', ...refHead.map(() => 'auto'), ...cols.map((c) => ((['text', 'string'].includes(line.fields[c]?.type ?? '') && c === cols.find((x) => line.fields[x]?.type === 'text' || /description|name/.test(x))) || line.fields[c]?.type === 'link' ? '*' : 'auto'))];
  if (!widths.includes('*')) widths[widths.length - 1] = '*';
  return { table: { headerRows: 1, widths, body }, layout: 'lightHorizontalLines', margin: [0, 10, 0, 10] };
}

/** How the document was paid (print.payment): the fields that have a value, under one heading. */
function paymentBlock(doc: DocumentPrint, o: PrintOptions): object[] {
  const fields = (doc.entity.print?.payment ?? []).filter((n) => doc.entity.fields[n] && doc.row[n] !== null && doc.row[n] !== undefined && doc.row[n] !== '');
  if (!fields.length) return [];
  const f = (n: string) => doc.entity.fields[n]!;
  return [{
    margin: [0, 10, 0, 0],
    stack: [
      bold(WORDS[o.lang].payment),
      { table: { body: fields.map((n) => [bold(f(n).label[o.lang], { noWrap: true }), text(cellValue(f(n), doc.row[n], o))]) }, layout: 'noBorders' },
    ],
  }];
}

/** The title and number a print shows: the schema's, or the heading the caller gives (an e-Tax PDF). */
export function headingOf(doc: DocumentPrint, o: PrintOptions): { title: string; number: string } {
  if (doc.heading) return doc.heading;
  const { entity, row } = doc;
  const issuer = doc.parties.issuer;
  return { title: printTitle(entity, row, issuer ? doc.links[issuer] : null, doc.taxInvoiceMode, o.lang), number: String(row[entity.numbering?.field ?? entity.titleField] ?? '') };
}

/** The content of one copy of the document. */
function documentContent(doc: DocumentPrint, o: PrintOptions): object[] {
  const { entity, row } = doc;
  const label = (n: string) => entity.fields[n]?.label[o.lang] ?? n;
  const { party, issuer } = doc.parties;
  const numberField = entity.numbering?.field ?? entity.titleField;
  const heading = headingOf(doc, o);
  // a date with no value (a receipt's 50 ทวิ date when no tax was withheld) prints no empty label
  const dates = Object.keys(entity.fields).filter((n) => ['date', 'datetime'].includes(entity.fields[n]!.type) && row[n] !== null && row[n] !== undefined && row[n] !== '');
  // a goods receipt, delivery or transfer says which warehouse (and location) the goods leave and enter, across
  // the page as the party is (in the header's narrow column a long name would be cut inside a word)
  const places = stockPlaceFields(entity).filter((n) => doc.links[n]).map((n) => [bold(label(n), { noWrap: true }), text(linkText(doc.links[n]!, o.lang))]);
  const headerRows = [[bold(label(numberField), { noWrap: true }), text(heading.number, { noWrap: true })], ...dates.map((n) => [bold(label(n), { noWrap: true }), text(cellValue(entity.fields[n], row[n], o), { noWrap: true })])];
  const issuerLines = partyBlock(issuer ? doc.links[issuer] : null, o, true);
  const partyLines = partyBlock(party ? doc.links[party] : null, o);
  const logo = entity.print?.logo ? logoNode(doc.logo) : null;
  const content: object[] = [
    {
      columns: [
        { width: '*', stack: [...(logo ? [logo] : []), ...issuerLines.map((s, i) => (i === 0 ? bold(s, { fontSize: 13 }) : text(s)))] },
        { width: 'auto', stack: [
          // a title and a header label stay on one line: pdfmake, squeezed, would cut a word letter by letter
          bold(heading.title, { fontSize: 16, alignment: 'right', noWrap: true }),
          { table: { body: headerRows }, layout: 'noBorders' },
        ] },
      ],
    },
    ...(party ? [{ margin: [0, 12, 0, 0], stack: [bold(label(party)), ...partyLines.map((s) => text(s))] }] : []),
    ...(places.length ? [{ margin: [0, 12, 0, 0], table: { widths: ['auto', '*'], body: places }, layout: 'noBorders' }] : []),
    ...(doc.note ? [noteReferenceBlock(doc.note, o)] : []),
    ...paymentBlock(doc, o),
    ...Object.entries(entity.fields).filter(([n, f]) => f.type === 'lines' && doc.lineEntities[n]).map(([n]) => linesTable(n, doc, o)),
  ];
  const noteField = Object.keys(entity.fields).find((n) => entity.fields[n]!.type === 'text' && row[n]);
  if (noteField) content.push({ margin: [0, 0, 0, 8], stack: [bold(label(noteField)), text(String(row[noteField]))] });
  content.push(footNode(doc, o));
  return content;
}

/**
 * The foot: the totals with the amount in words (and a note's s. 86/10 values) beside them, the PromptPay
 * QR, the signatures, and on an English tax document the words that the Thai original prevails. One
 * unbreakable block, so the signatures never stand alone on a page (issue 47 §4).
 */
function footNode(doc: DocumentPrint, o: PrintOptions): object {
  const { entity, row } = doc;
  const label = (n: string) => entity.fields[n]?.label[o.lang] ?? n;
  const totals = TOTAL_FIELDS.filter((n) => entity.fields[n]);
  const wordsField = WORDS_FIELDS.find((n) => entity.fields[n] && row[n] !== null && row[n] !== undefined);
  const left: object[] = [];
  if (wordsField) left.push(bold(`(${amountInWords(Number(row[wordsField]), o.lang)})`, { margin: [0, 4, 0, 6] }));
  if (doc.note) left.push(noteValuesTable(doc.note, o));
  const stack: object[] = [];
  if (totals.length || left.length) {
    stack.push({
      columnGap: 12,
      columns: [
        { width: '*', stack: left },
        ...(totals.length ? [{ width: 'auto', table: { body: totals.map((n) => [bold(label(n), { noWrap: true }), text(formatMoney(row[n] ?? 0), { alignment: 'right', noWrap: true })]) }, layout: 'lightHorizontalLines' }] : []),
      ],
    });
  }
  if (doc.promptpay) {
    const pp = doc.promptpay;
    const words = o.lang === 'th' ? { title: 'ชำระด้วยพร้อมเพย์', due: 'ยอดค้างชำระ' } : { title: 'Pay by PromptPay', due: 'Amount due' };
    stack.push({
      margin: [0, 8, 0, 0],
      columns: [
        { width: 'auto', image: pp.image, fit: [96, 96] },
        { width: '*', margin: [8, 20, 0, 0], stack: [bold(words.title), text(`${words.due} ${formatMoney(pp.amount)}`), text(headingOf(doc, o).number, { noWrap: true })] },
      ],
    });
  }
  const signatures = signatureNode(entity, o.lang);
  if (signatures) stack.push(signatures);
  if (o.lang === 'en' && entity.document?.etax) {
    stack.push(text('This document is a translation; the Thai original prevails. / เอกสารนี้เป็นฉบับแปล หากมีข้อความขัดแย้งกันให้ถือตามต้นฉบับภาษาไทย', { fontSize: 8, margin: [0, 12, 0, 0], alignment: 'center' }));
  }
  return { unbreakable: true, margin: [0, 4, 0, 0], stack };
}

/** "ใบกำกับภาษี TPT-IV202611-0001 · วันที่ 3 พฤศจิกายน 2569 · ลูกค้า บริษัท … (ต่อ)", atop every page after the first. */
function continuationLine(doc: DocumentPrint, o: PrintOptions): string {
  const { entity, row } = doc;
  const h = headingOf(doc, o);
  const dateField = entity.numbering?.dateField ?? Object.keys(entity.fields).find((n) => entity.fields[n]!.type === 'date');
  const party = doc.parties.party;
  const partyName = party ? partyBlock(doc.links[party], o)[0] : undefined;
  return [
    `${h.title} ${h.number}`,
    dateField && row[dateField] ? `${entity.fields[dateField]!.label[o.lang]} ${formatDate(row[dateField], o)}` : '',
    party && partyName ? `${entity.fields[party]!.label[o.lang]} ${partyName}` : '',
  ].filter(Boolean).join(' · ') + ` (${WORDS[o.lang].continued})`;
}

/** The pdfmake document definition of one document; exported so tests can look at the layout without a PDF. */
export function documentDefinition(doc: DocumentPrint, o: PrintOptions): object {
  const { entity, row } = doc;
  const numberField = entity.numbering?.field ?? entity.titleField;
  // one copy is one pdfmake document: its mark is the page header, on every page, and "หน้า x/y" counts its own
  // pages; renderDocumentPdf joins the copies. Several copies in one definition (only for a look at the layout)
  // are built afresh each (pdfmake writes layout state into the nodes) and start on a new page.
  const kind = o.copies?.length === 1 ? o.copies[0]! : null;
  const content = o.copies && o.copies.length > 1
    ? o.copies.flatMap((k, i) => [{ text: '', ...(i ? { pageBreak: 'before' } : {}) }, copyMarkNode(k, o.lang), ...documentContent(doc, o)])
    : documentContent(doc, o);
  const viewOnly = o.copy ? bold(COPY_MARK, { alignment: 'center', fontSize: 11, color: '#B91C1C', margin: [0, 14, 0, 0] }) : null;
  const copyHeader = kind ? { ...copyMarkNode(kind, o.lang), margin: [40, 12, 40, 0] } : null;
  const fixed = [viewOnly, copyHeader].filter((n): n is NonNullable<typeof n> => n !== null);
  // every page after the first names the document: a loose page can be filed back (issue 47 §4)
  const continued = text(continuationLine(doc, o), { fontSize: 9, margin: [40, fixed.length ? 4 : 18, 40, 0], color: '#374151' });
  const header = (page: number) => (page > 1 ? { stack: [...fixed, continued] } : fixed.length ? { stack: fixed } : null);
  return {
    pageSize: 'A4',
    pageMargins: [40, 40 + (viewOnly ? 16 : 0) + (copyHeader ? 18 : 0), 40, 50],
    info: { title: `${entity.label[o.lang]} ${row[numberField] ?? ''}${o.copy ? ` (${o.lang === 'en' ? 'copy' : 'สำเนา'})` : ''}`, producer: 'Thai back office' },
    // viewers that honour DisplayDocTitle show this title instead of the file name (for the portal's embedded copy, a blob id)
    displayTitle: true,
    defaultStyle: { font: 'SarabunLatin', fontSize: 10 },
    footer: (page: number, pages: number) => text(`${WORDS[o.lang].page} ${page}/${pages}`, { alignment: 'center', fontSize: 8 }),
    // a view-only copy says so on every page, so a screenshot or a saved file cannot pass for an issued original
    header,
    ...(o.copy ? {
      watermark: { text: 'COPY', font: 'SarabunLatin', color: '#B91C1C', opacity: 0.12, bold: true },
    } : {}),
    content,
  };
}

/** The definition in the layout the schema asks for (print.layout), else the generic document. */
export function printDefinition(doc: DocumentPrint, o: PrintOptions): object {
  return doc.entity.print?.layout === 'wht_50_tawi' ? withholdingDefinition(doc, o) : documentDefinition(doc, o);
}

export async function renderDocumentPdf(doc: DocumentPrint, o: PrintOptions): Promise<Buffer> {
  // the 50 ทวิ lays its copies out itself; other documents print each copy on its own and join them
  if (doc.entity.print?.layout === 'wht_50_tawi' || !o.copies || o.copies.length < 2) return pdfMake().createPdf(printDefinition(doc, o)).getBuffer();
  const parts = [];
  for (const kind of o.copies) parts.push(await pdfMake().createPdf(documentDefinition(doc, { ...o, copies: [kind] })).getBuffer());
  return joinPdfs(parts);
}

/** One PDF of several, page after page, keeping the first one's title (shown by viewers, DisplayDocTitle). */
async function joinPdfs(parts: Buffer[]): Promise<Buffer> {
  const out = await PDFDocument.create();
  const first = await PDFDocument.load(parts[0]!);
  for (const part of parts) {
    const src = part === parts[0] ? first : await PDFDocument.load(part);
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  out.setTitle(first.getTitle() ?? '', { showInWindowTitleBar: true });
  out.setProducer(first.getProducer() ?? '');
  return Buffer.from(await out.save());
}
