/**
 * Writes an EtaxDocument as the ETDA message its type code belongs to (TaxInvoice_, AbbreviatedTaxInvoice_,
 * Receipt_, DebitCreditNote_, Invoice_ or CancellationNote_CrossIndustryInvoice), element order as in ETDA's XSDs.
 * xmlbuilder2 escapes every value; nothing is concatenated into markup.
 */
import { create } from 'xmlbuilder2';
import { ETAX_GUIDELINE, ETAX_TYPES, etaxNamespaces } from './etax-codes.ts';
import { amountText, type EtaxAddress, type EtaxDocument, type EtaxParty } from './etax-document.ts';

/** xmlbuilder2's node type, as its create() returns it (its interfaces module has no typed export path). */
type XMLBuilder = ReturnType<typeof create>;

/** ISODateTime as ETDA's examples write it (no zone: the business's local time). */
const dateTime = (date: string) => `${date}T00:00:00`;
const stamp = (iso: string) => iso.replace(/Z$/, '').replace(/\.\d+$/, '');

export function etaxXml(doc: EtaxDocument): string {
  const message = ETAX_TYPES[doc.typeCode].message;
  const ns = etaxNamespaces(message);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(ns.rsm, `rsm:${message}_CrossIndustryInvoice`, { 'xmlns:ram': ns.ram });
  const ram = (parent: XMLBuilder, name: string, text?: string | null, attrs?: Record<string, string>): XMLBuilder => {
    const el = parent.ele(ns.ram, `ram:${name}`, attrs);
    if (text !== undefined && text !== null) el.txt(text);
    return el;
  };
  root.ele(ns.rsm, 'rsm:ExchangedDocumentContext')
    .ele(ns.ram, 'ram:GuidelineSpecifiedDocumentContextParameter')
    .ele(ns.ram, 'ram:ID', { schemeAgencyID: ETAX_GUIDELINE.agency, schemeVersionID: ETAX_GUIDELINE.version }).txt(ETAX_GUIDELINE.id);

  const ed = root.ele(ns.rsm, 'rsm:ExchangedDocument');
  ram(ed, 'ID', doc.id);
  ram(ed, 'Name', doc.name);
  ram(ed, 'TypeCode', doc.typeCode);
  ram(ed, 'IssueDateTime', dateTime(doc.issueDate));
  if (doc.purpose) ram(ed, 'Purpose', doc.purpose);
  // the cancellation note has no PurposeCode element
  if (doc.purposeCode && message !== 'CancellationNote') ram(ed, 'PurposeCode', doc.purposeCode);
  // ETDA's invoice (380) has no CreationDateTime
  if (message !== 'Invoice') ram(ed, 'CreationDateTime', stamp(doc.createdAt));
  if (doc.note) ram(ram(ed, 'IncludedNote'), 'Subject', doc.note.slice(0, 256));

  const tx = root.ele(ns.rsm, 'rsm:SupplyChainTradeTransaction');
  const agreement = ram(tx, 'ApplicableHeaderTradeAgreement');
  writeParty(ram, ram(agreement, 'SellerTradeParty'), doc.seller, true);
  // an abbreviated tax invoice names no buyer (its XSD has only the seller), nor other documents
  const abbreviated = message === 'AbbreviatedTaxInvoice';
  if (message !== 'CancellationNote' && !abbreviated) writeParty(ram, ram(agreement, 'BuyerTradeParty'), doc.buyer, false);
  for (const r of abbreviated ? [] : doc.references) {
    const ref = ram(agreement, 'AdditionalReferencedDocument');
    ram(ref, 'IssuerAssignedID', r.id);
    ram(ref, 'IssueDateTime', dateTime(r.date));
    ram(ref, 'ReferenceTypeCode', r.typeCode);
  }
  if (message === 'CancellationNote') {
    ram(tx, 'ApplicableHeaderTradeSettlement');
    return root.end({ prettyPrint: true });
  }
  ram(tx, 'ApplicableHeaderTradeDelivery');
  const settlement = ram(tx, 'ApplicableHeaderTradeSettlement');
  ram(settlement, 'InvoiceCurrencyCode', 'THB', { listID: 'ISO 4217 3A' });
  // lines without VAT (exempt or zero-rated products) are a tax group of their own at rate 0
  const groups: Array<[string, bigint, bigint]> = doc.exemptBasis > 0n
    ? [[doc.vatRate, doc.taxBasis - doc.exemptBasis, doc.tax], ['0', doc.exemptBasis, 0n]]
    : [[doc.vatRate, doc.taxBasis, doc.tax]];
  for (const [rate, basis, amount] of groups) {
    const tax = ram(settlement, 'ApplicableTradeTax');
    ram(tax, 'TypeCode', 'VAT');
    ram(tax, 'CalculatedRate', rate);
    ram(tax, 'BasisAmount', amountText(basis));
    ram(tax, 'CalculatedAmount', amountText(amount));
  }
  if (doc.allowance > 0n) {
    const ac = ram(settlement, 'SpecifiedTradeAllowanceCharge');
    ram(ac, 'ChargeIndicator', 'false');
    ram(ac, 'ActualAmount', amountText(doc.allowance));
    ram(ac, 'ReasonCode', '95');
    ram(ac, 'Reason', 'ส่วนลดท้ายบิล');
  }
  const sum = ram(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  if (doc.original !== null) ram(sum, 'OriginalInformationAmount', amountText(doc.original));
  ram(sum, 'LineTotalAmount', amountText(doc.lineTotal));
  if (doc.difference !== null) ram(sum, 'DifferenceInformationAmount', amountText(doc.difference));
  ram(sum, 'AllowanceTotalAmount', amountText(doc.allowance));
  ram(sum, 'TaxBasisTotalAmount', amountText(doc.taxBasis));
  ram(sum, 'TaxTotalAmount', amountText(doc.tax));
  ram(sum, 'GrandTotalAmount', amountText(doc.grand));

  for (const l of doc.lines) {
    const item = ram(tx, 'IncludedSupplyChainTradeLineItem');
    ram(ram(item, 'AssociatedDocumentLineDocument'), 'LineID', String(l.no));
    const product = ram(item, 'SpecifiedTradeProduct');
    if (l.productCode) ram(product, 'ID', l.productCode);
    ram(product, 'Name', l.name);
    ram(ram(ram(item, 'SpecifiedLineTradeAgreement'), 'GrossPriceProductTradePrice'), 'ChargeAmount', amountText(l.price));
    ram(ram(item, 'SpecifiedLineTradeDelivery'), 'BilledQuantity', l.qty, l.unit ? { unitCode: l.unit.slice(0, 35) } : undefined);
    const ls = ram(item, 'SpecifiedLineTradeSettlement');
    const lt = ram(ls, 'ApplicableTradeTax');
    ram(lt, 'TypeCode', 'VAT');
    ram(lt, 'CalculatedRate', l.exempt ? '0' : doc.vatRate);
    ram(lt, 'BasisAmount', amountText(l.net));
    ram(lt, 'CalculatedAmount', amountText(l.vat));
    const lsum = ram(ls, 'SpecifiedTradeSettlementLineMonetarySummation');
    ram(lsum, 'TaxTotalAmount', amountText(l.vat));
    ram(lsum, 'NetLineTotalAmount', amountText(l.net), { currencyID: 'THB' });
    ram(lsum, 'NetIncludingTaxesLineTotalAmount', amountText(l.net + l.vat), { currencyID: 'THB' });
  }
  return root.end({ prettyPrint: true });
}

type Ram = (parent: XMLBuilder, name: string, text?: string | null, attrs?: Record<string, string>) => XMLBuilder;

function writeParty(ram: Ram, el: XMLBuilder, p: EtaxParty, seller: boolean): void {
  ram(el, 'Name', p.name.slice(0, 256));
  ram(ram(el, 'SpecifiedTaxRegistration'), 'ID', p.taxId, { schemeID: p.scheme });
  writeAddress(ram, ram(el, 'PostalTradeAddress'), p.address, seller);
}

/**
 * The seller's address is structured (house number, TISI codes of ตำบล/อำเภอ/จังหวัด); a buyer's may be one
 * line (LineOne) when its codes are not known, which the standard allows (*-BuyerTradeParty-007).
 */
function writeAddress(ram: Ram, el: XMLBuilder, a: EtaxAddress, seller: boolean): void {
  const structured = Boolean(a.buildingNumber && a.cityCode && a.subDivisionCode && a.provinceCode);
  if (a.postcode) ram(el, 'PostcodeCode', a.postcode);
  if (a.line && (!structured || !seller)) ram(el, 'LineOne', a.line);
  if (a.cityCode) ram(el, 'CityName', a.cityCode);
  if (a.subDivisionCode) ram(el, 'CitySubDivisionName', a.subDivisionCode);
  ram(el, 'CountryID', 'TH', { schemeID: '3166-1 alpha-2' });
  if (a.provinceCode) ram(el, 'CountrySubDivisionID', a.provinceCode);
  if (a.buildingNumber) ram(el, 'BuildingNumber', a.buildingNumber);
}
