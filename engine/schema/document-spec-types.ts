/** The document keys of an entity schema (`document`, `print`): docs/schema-format.md. Split from schema-types.ts to keep files small. */
import type { LocalizedText } from './localized-text.ts';
import type { ScanSpec, StockSpec } from './stock-spec-types.ts';
import type { JournalSpec } from './journal-spec-types.ts';

/** A document this one can be created from, and what processing it does to that source. */
export interface DocumentSource {
  /** The source entity (a document with the same lines conventions). */
  source: string;
  /**
   * The create-from screen's title and menu entry (its route is always `/{target}/{source}`); absent:
   * "{target} จาก {source}" (`createFromTitle` in engine/documents/create-from-labels.ts).
   */
  label?: LocalizedText;
  /** The button on a posted source that opens that screen with the source chosen ("รับชำระ"); absent: "สร้าง{target}". */
  action?: LocalizedText;
  /** Listed in the staff menu, in the target's menu group with its icon, for roles that may view the target. */
  menu?: boolean;
  /** Source states it may be created from (the first is where the source returns when nothing is processed any more). */
  states: string[];
  /** Header fields copied from the source; with several sources they must agree. */
  header?: string[];
  /**
   * Header fields of this document (keys) that start from a header field of the source (values) when the sources
   * agree on one and the request sends none: a goods receipt takes its purchase order's warehouse, a transfer
   * its delivery's as the warehouse it moves from. Unlike `header`, the person may change them and posting
   * does not hold them to the source.
   */
  headerDefaults?: Record<string, string>;
  /** Line fields copied from the source's lines. */
  lineFields?: string[];
  /**
   * A line field (a goods receipt's unit cost) that takes the source line's net unit price: its part of the
   * source's amount before VAT (line and document discounts out, VAT out when prices include it) over its quantity.
   */
  netPrice?: string;
  /**
   * A link field of this document's lines to the source document as a whole (a receipt line's
   * `billing_note_id`). A line typed by hand that names a source document this way, without a
   * source line, is spread over that document's lines on save, each taking what is still open on
   * it, so posting settles the source exactly as a document made from it does.
   */
  documentLink?: string;
  /** The line field whose total this document may not exceed per source line: "qty" (default) or "amount". */
  measure?: string;
  /**
   * A capacity shared with the other documents that name the same pool for the same source (measure "amount"):
   * "collect" on a sales order is one figure for its bills and its receipts made straight from it, and bills of
   * the order's tax invoices count against the order line each invoice line came from (server/documents/sale-balance.ts).
   */
  pool?: string;
  /**
   * Made from this source, the document may be dated before it (a delivery recorded before its order was keyed,
   * which the exception report title_do_unlike_so lists). Left out, such a date is refused (before_source).
   */
  earlierDateAllowed?: boolean;
  /** The source's status once part of it, or all of it, is processed by posted documents of this kind. */
  partial?: string;
  complete?: string;
  /**
   * A status field of the source that follows this kind of document on its own (a sales order's delivery
   * status follows its deliveries, its billing status its tax invoices). The field is a read-only enum whose
   * default means "nothing processed"; `partial` and `complete` are its values once part, or all, is processed.
   * With `tracks`, the workflow's `partial`/`complete` above follow the source's `document.completeWhen`.
   */
  tracks?: { field: string; partial: string; complete: string };
}

/** Document behaviour (kind "document"): computed amounts, posting, "create from". */
/** ETDA document type codes (ThaiDocumentNameCode_Invoice) the product issues; docs/documents.md, e-Tax. */
/**
 * One rule of `document.etax.typeCodeWhen`: `servesAsTaxInvoice` (a receipt that also serves as a tax invoice,
 * engine/documents/tax-invoice-role.ts) or `when` (field values, as `notWhen`: `{"invoice_type": ["full"]}`).
 */
export type EtaxTypeCodeWhen =
  | { servesAsTaxInvoice: 'full' | 'abbreviated'; typeCode: EtaxTypeCode }
  | { when: Record<string, string[]>; typeCode: EtaxTypeCode };
export type EtaxTypeCode = '388' | 'T01' | 'T02' | 'T03' | 'T04' | 'T05' | 'T06' | '80' | '81' | '380';
/**
 * A point-of-sale sale (server/pos/): `POST /api/{entity}` takes the shift, the products and the payments, prices
 * them (promotions included), creates and posts the document in one transaction, once per Idempotency-Key.
 */
export interface SaleSpec {
  /** The link to the open shift the sale belongs to; its target is the shift entity. */
  shift: string;
  /** The link to the terminal (filled from the shift); the number series are per terminal. */
  terminal: string;
  /** The lines field of payments (payment_method_id, amount). */
  payments: string;
  /** The unique string field that keeps the request's Idempotency-Key. */
  idempotencyField: string;
  /** The field receiving the tax invoice number, drawn in its own series per terminal and form. */
  invoiceNumber: string;
  invoicePrefix: { abbreviated: string; full: string };
  /**
   * Partial returns (server/pos/sale-return.ts): the lines field recording the money each return gave back
   * (payment_method_id, payment_type, amount, refunded_at, reason). The sale's lines carry `returned_qty`, its
   * header `returned_amount` and `returned_vat`. Without it a sale is only refunded whole.
   */
  refunds?: string;
  /**
   * The credit note (ใบลดหนี้, s. 86/10) a partial return of a sale with a full tax invoice issues
   * (server/pos/sale-credit-note.ts): `entity` the note (its header has the document amounts, `doc_date`, `remark`
   * and the workflow's posted state), `field` its link to the sale. The sale's header carries `credited_amount` and
   * `credited_vat`, the part of its returns that have notes (the sales tax report lists the notes instead).
   */
  creditNote?: { entity: string; field: string };
  /**
   * Pay-in and pay-out (server/pos/shift-cash.ts): the lines field of the shift entity recording cash put into or
   * taken out of the drawer with a reason (direction in/out, amount, reason, moved_at, user_id); the expected cash
   * and the X/Z reports count it.
   */
  shiftCash?: string;
}

export interface DocumentSpec {
  /** The lines field that carries quantities and amounts; absent for a document without lines (a withholding certificate). */
  lines?: string;
  /** Header and line amounts are computed by the engine's document arithmetic (engine/documents). */
  amounts?: boolean;
  /**
   * Lines carry an amount each (a part of a source line's amount), not qty × price: billing notes,
   * receipts and credit notes. Each line counts as one unit at its amount; VAT is still on the document.
   */
  byAmount?: boolean;
  /** A point-of-sale sale (server/pos/). */
  sale?: SaleSpec;
  /**
   * The document's date field. A document made from others is not dated before them; with `access.companyField`,
   * none dated on or before the company's `books_closed_until` is issued, posted, cancelled or amended
   * (server/documents/closed-books.ts).
   */
  date?: string;
  /**
   * A read-only decimal field the server fills on save with the highest WHT rate (%) on the lines this document takes
   * from, following lines made from others to theirs (a receipt of a bill reads the bill's order): 0 when none carries
   * one, so the form can warn about tax withheld without a rate (issue 44 §6, server/documents/sources-wht-rate.ts).
   */
  sourcesWhtRate?: string;
  /** The workflow action that posts the document (default "approve") and the one that reverses it (default "cancel"). */
  postAction?: string;
  cancelAction?: string;
  /**
   * Exported as ETDA e-Tax XML / PDF/A-3 (server/etax): its ETDA type code; `notWhen` field values the standard
   * does not cover; `purposeField` the field (a link shows its display field) whose value a note gives as its reason.
   */
  etax?: {
    typeCode: EtaxTypeCode; notWhen?: Record<string, string[]>; purposeField?: string;
    /** The field holding the number the XML gives as the document's ID (a sale's tax invoice number); default the numbering field. */
    numberField?: string;
    /**
     * Other type codes by rule, the first that holds wins: `{"servesAsTaxInvoice": "full", "typeCode": "T03"}`
     * is a receipt that also serves as a full tax invoice (print.taxInvoiceTitle's rule and the site's
     * `tax_invoice` setting, engine/documents/tax-invoice-role.ts), exported as ใบเสร็จรับเงิน/ใบกำกับภาษี.
     */
    typeCodeWhen?: Array<EtaxTypeCodeWhen>;
  };
  from?: DocumentSource[];
  /**
   * For a source whose status fields are tracked (`from[].tracks` of the documents made from it): the value each
   * tracked field must hold for its workflow to be complete. A sales order is complete when delivered and billed;
   * it is partial while any of them is off its default.
   */
  completeWhen?: Record<string, string>;
  /** A stock document: what posting it writes to the ledger (server/stock), and what cancelling reverses. */
  stock?: StockSpec;
  /** The general-ledger entry of posting, reversed on cancel (server/ledger, docs/accounting.md). */
  journal?: JournalSpec;
  /** A document scanned into with a barcode scanner (server/barcodes): its scan endpoints, panel and pack states. */
  scan?: ScanSpec;
  /**
   * A document that is a tax invoice once posted (a tax invoice): a receipt made for its sale is then a plain
   * receipt. With `roleField`, a document that serves as a tax invoice only for a sale that has none yet (a
   * receipt): whether it does ("full", "abbreviated" or "none") is decided when it is posted, stored in that
   * read-only field and never changes (server/documents/tax-invoice-supply.ts; docs/documents.md).
   */
  taxInvoice?: {
    roleField?: string;
    /**
     * The enum field that says whether it is a full or an abbreviated tax invoice: on posting, an abbreviated one is
     * refused while the site's `tax_invoice` setting is "full", and each form must state its fields (the seller's tax
     * id; a full one also the buyer's name, tax id and branch, s. 86/4) (server/documents/tax-invoice-rules.ts).
     */
    formField?: string;
    /** The ship-to name and address fields a new record fills from its customer's default shipping address (site setting is_enable_customer_ship_to_details). */
    shipTo?: { name: string; address: string };
  };
  /**
   * A credit or debit note (Revenue Code s. 86/9, 86/10): it corrects one issued document of its `from` sources.
   * Its post action is refused (409 NOTE_WITHOUT_INVOICE) unless every line comes from that one document, whose id
   * is then stored in `field` (a read-only link).
   */
  corrects?: { field: string };
  /**
   * While the site setting `setting` equals `equals` (an unset setting counts as equal), every line of a record
   * in one of `states` must come from a source document (its `source_line_id` is set): delivery orders made from
   * a sales order only (server/stock/site-flag-rules.ts).
   */
  sourceRequiredWhen?: { setting: string; equals: string; states: string[] };
  /** A product (the lines' `field`) appears on one line only, unless the boolean site setting `unlessSetting` is on. */
  uniqueLineProduct?: { field: string; unlessSetting: string };
  /**
   * Documents made of this one (through the target's `from[]`) when a record goes from status `from` to `to`
   * while every boolean site setting in `settings` is on: approving a purchase order makes a draft goods receipt.
   */
  autoCreate?: { target: string; from: string; to: string; settings: string[] }[];
}

/** How a document prints (server/print): schema keys, so no code names an entity. */
export interface PrintSpec {
  limitByRole?: boolean;
  /** The signature blocks at the foot, left to right (receipt: ผู้รับเงิน, ผู้มีอำนาจลงนาม). */
  signatures?: Array<{ th: string; en: string }>;
  /** The company logo at the top (sales and finance documents). */
  logo?: boolean;
  /**
   * The title when the document also serves as a tax invoice: the issuing company is VAT registered,
   * the document carries VAT, and the site's tax_invoice setting names the mode (full or abbreviated).
   */
  taxInvoiceTitle?: { full?: { th: string; en: string }; abbreviated?: { th: string; en: string } };
  /** Header fields printed together as the payment (a receipt: method, bank, cheque or transfer no., date). */
  payment?: string[];
  /**
   * On a lines entity: each line prints the document it refers to (number, date, due date), found through
   * its source_line_id (the document it was made from); `replaces` are the free-text columns this stands for,
   * printed only on a line that refers to nothing.
   */
  references?: { replaces: string[] };
  /** A PromptPay QR of the amount still due (the issuing company's promptpay_id), and GET /api/{document}/{id}/promptpay. */
  promptpay?: boolean;
  /** A layout of its own instead of the generic document (wht_50_tawi: the Revenue Department's 50 ทวิ form). */
  layout?: 'wht_50_tawi';
}
