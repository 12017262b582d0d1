import type { EntityService } from '../crud/entity-service.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { renderDocumentPdf, type DocumentPrint } from '../print/document-pdf.ts';
import { pdfFileName, readDocument } from '../print/print-routes.ts';
import { etaxXml } from '../../engine/etax/etax-xml.ts';
import { ETAX_TYPES, SIGNED_MESSAGES } from '../../engine/etax/etax-codes.ts';
import { etaxDocumentFor } from './etax-source.ts';
import { etaxWarnings, type EtaxWarning } from '../../engine/etax/etax-document.ts';
import { toPdfA3 } from './etax-pdfa.ts';
import { loadSigningKey, signEtaxXml, type SigningKey } from './etax-signer.ts';
import type { EtaxSettings } from './etax-settings.ts';
import { storedEtaxFile, type EtaxKind } from './etax-store.ts';

/** The English words of fx:DocumentType in the PDF/A-3's XMP, by ETDA message. */
const XMP_TYPE = { TaxInvoice: 'TAX INVOICE', AbbreviatedTaxInvoice: 'ABBREVIATED TAX INVOICE', Receipt: 'RECEIPT', DebitCreditNote: 'DEBIT CREDIT NOTE', Invoice: 'INVOICE', CancellationNote: 'CANCELLATION NOTE' } as const;

export interface EtaxFiles {
  xml: string; xmlFileName: string; signed: boolean; title: string; message: keyof typeof XMP_TYPE; warnings: EtaxWarning[];
  /** The title and number the PDF shows when the message's differ from the print's (a POS sale's tax invoice, a cancellation note). */
  heading: { title: string; number: string } | null;
  key: { entity: string; id: number; kind: EtaxKind };
}

/**
 * Builds what both endpoints and the e-mail hand out: the (signed, when configured) XML of one document and
 * its PDF/A-3, each made once and then served as stored (etax-store.ts).
 */
export class EtaxMaker {
  private key: Promise<SigningKey> | null = null;

  constructor(private readonly service: EntityService, private readonly policy: PermissionPolicy, readonly settings: EtaxSettings) {}

  /** The certificate, read once; a file that cannot be opened fails every signing request with the server's reason in the log. */
  signingKey(): Promise<SigningKey> | null {
    if (!this.settings.signing) return null;
    this.key ??= loadSigningKey(this.settings.signing);
    return this.key;
  }

  async files(entity: EntitySchema, id: number, ctx: RequestContext, flag: 'print' | 'email', cancellation: boolean): Promise<EtaxFiles & { doc: DocumentPrint }> {
    const doc = await readDocument(this.service, this.policy, entity, id, ctx, flag);
    // the model is made on every request: it says whether the document may be exported now (issued, not
    // cancelled unless a cancellation note is asked for); its XML is kept from the first request
    const model = await etaxDocumentFor(this.service, doc, cancellation);
    // the message's type and number are part of the key: a receipt that serves as a tax invoice only under
    // another site setting is another document, kept beside the first
    const key = { entity: entity.name, id, kind: `${cancellation ? 'cancellation' : 'document'}:${model.typeCode}:${model.id}` satisfies EtaxKind as EtaxKind };
    const stored = await storedEtaxFile(this.service.db.kysely, { ...key, file: 'xml' }, async () => {
      let xml = etaxXml(model);
      const message = ETAX_TYPES[model.typeCode].message;
      const signing = SIGNED_MESSAGES.has(message) ? this.signingKey() : null;
      if (signing) xml = await signEtaxXml(xml, await signing);
      const base = pdfFileName(entity, doc.row, id).replace(/\.pdf$/, '');
      const printed = String(doc.row[entity.numbering?.field ?? entity.titleField] ?? '');
      const heading = cancellation || model.id !== printed ? { title: model.name, number: model.id } : null;
      const meta = { signed: Boolean(signing), warnings: etaxWarnings(model), xmlFileName: `${base}${cancellation ? '-cancellation' : ''}.xml`, title: `${model.name} ${model.id}`, message, heading };
      return { content: Buffer.from(xml, 'utf8'), meta: JSON.stringify(meta) };
    });
    return { ...(JSON.parse(stored.meta) as Omit<EtaxFiles, 'xml' | 'key'>), xml: stored.content.toString('utf8'), key, doc };
  }

  /**
   * The PDF/A-3 of the stored XML in one language, made once. It shows the document the XML states (its
   * title and number) and no PromptPay QR: a kept file cannot follow what is still due.
   */
  async pdf(f: EtaxFiles & { doc: DocumentPrint }, lang: 'th' | 'en'): Promise<Buffer> {
    const stored = await storedEtaxFile(this.service.db.kysely, { ...f.key, file: `pdf-${lang}` }, async () => {
      const pdf = await renderDocumentPdf({ ...f.doc, promptpay: null, heading: f.heading }, { lang });
      const out = await toPdfA3({ pdf, xml: f.xml, xmlFileName: f.xmlFileName, title: f.title, documentType: XMP_TYPE[f.message] });
      return { content: out, meta: '{}' };
    });
    return stored.content;
  }
}
