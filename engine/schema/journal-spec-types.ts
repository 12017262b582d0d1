/** The accounting key of a document schema (`document.journal`): docs/accounting.md, docs/schema-format.md. */

/** Where a journal line's amount comes from. */
export type JournalAmount =
  /** A money field of the document's header. */
  | string
  /** Σ `value` of the stock movements the document wrote in that direction (the stock ledger's cost). */
  | { stock: 'in' | 'out' }
  /** Σ a money field over a lines field of the document (a sale's payments), one journal line per role. */
  | { lines: string; amount: string }
  /**
   * Σ over the document's lines made from this source entity (`document.from[].source`, a stock document): the value
   * the source line put into stock (its stock movements' value), in proportion to the quantity the line takes. A
   * purchase invoice clears goods received not invoiced by what the goods receipt booked, not by its own price.
   */
  | { sourceValue: string }
  /**
   * The credit balance of an account role (`customer_deposits`) in the posted entries of the documents of the sale
   * the document's lines come from (and of everything made from it), at most the header money field `upTo`: a tax
   * invoice clears the deposits its sale's receipts took before it against the receivable it raises.
   */
  | { saleBalance: string; upTo: string };

/** One line of the entry: the account by role, and its side. */
export interface JournalLineSpec {
  /**
   * The account's role (account.role), or the role by a field's value: a header enum (a receipt's payment
   * method), or with a lines amount a field of each line, through one link ("payment_method_id.payment_type").
   */
  role: string | { field: string; roles: Record<string, string> };
  /** Exactly one of the two. */
  debit?: JournalAmount;
  credit?: JournalAmount;
  /** The line carries the document's party (`journal.party`), as a receivable or payable line does. */
  party?: boolean;
  /** The line goes to the entry in the books of `journal.toCompany` (the receiving side of a transfer between companies). */
  toCompany?: boolean;
}

/** One way the document posts; the first variant whose conditions all hold is used. */
export interface JournalVariant {
  /** What this variant is, for docs/accounting.md and the entry's memo. */
  name: string;
  /** Header field values: `{"tax_invoice_role": ["full", "abbreviated"]}`. */
  when?: Record<string, string[]>;
  /** Some line of the document was made from this source entity. */
  fromSource?: string;
  /** The sale the document's lines come from already has a posted tax invoice (server/documents/tax-invoice-supply.ts). */
  saleInvoiced?: boolean;
  /** `journal.company` and `journal.toCompany` name two different companies (a transfer between them). */
  betweenCompanies?: boolean;
  lines: JournalLineSpec[];
}

/**
 * The entry a document writes when its post action runs (in the same transaction), reversed by an entry
 * dated the cancel date when its cancel action runs (server/ledger/journal-posting.ts).
 */
export interface JournalSpec {
  /** The book of original entry. */
  journal: 'sales' | 'purchases' | 'receipts' | 'payments' | 'general';
  /**
   * The company whose books the entry goes to, through a link ("inventory_id.your_company_id": a stock document's
   * inventory decides, so each company's inventory account follows its own warehouses); when that is empty, and
   * by default, the document's `access.companyField`.
   */
  company?: string;
  /**
   * The other company of a transfer between companies, as `company` ("to_inventory_id.your_company_id"): the lines
   * marked `toCompany` make a second entry in its books, the others one in `company`'s.
   */
  toCompany?: string;
  /** The header link to the customer or supplier that lines with `party` carry. */
  party?: string;
  variants: JournalVariant[];
  /**
   * A change written besides the workflow (a POS sale's partial return, `write` "return" as the write's action):
   * its own entry, each header amount the change of that field, a lines amount over the lines the change added,
   * a stock amount over the movements the change wrote. Reversed with the rest when the document is cancelled.
   */
  returns?: { write: string; name: string; lines: JournalLineSpec[] };
}
