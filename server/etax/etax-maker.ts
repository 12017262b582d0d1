import type { EntityService } from '../crud/entity-service.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { renderDocumentPdf } from '../print/document-pdf.ts';
import { pdfFileName, readDocument } from '../print/print-routes.ts';
import { etaxXml } from '../../engine/etax/etax-xml.ts';
import { ETAX_TYPES, SIGNED_MESSAGES } from '../../engine/etax/etax-codes.ts';
import { etaxDocumentFor } from './etax-source.ts';
import { etaxWarnings, type EtaxWarning } from '../../engine/etax/etax-document.ts';
import { toPdfA3 } from './etax-pdfa.ts';
import { loadSigningKey, signEtaxXml, type SigningKey } from './etax-signer.ts';
import type { EtaxSettings } from './etax-settings.ts';

/** The English words of fx:DocumentType in the PDF/A-3's XMP, by ETDA message. */
const XMP_TYPE = { TaxInvoice: 'TAX INVOICE', AbbreviatedTaxInvoice: 'ABBREVIATED TAX INVOICE', Receipt: 'RECEIPT', DebitCreditNote: 'DEBIT CREDIT NOTE', Invoice: 'INVOICE', CancellationNote: 'CANCELLATION NOTE' } as const;

export interface EtaxFiles { xml: string; xmlFileName: string; signed: boolean; title: string; message: keyof typeof XMP_TYPE; warnings: EtaxWarning[] }

/** Builds what both endpoints and the e-mail hand out: the (signed, when configured) XML of one document. */
export class EtaxMaker {
  private key: Promise<SigningKey> | null = null;

  constructor(private readonly service: EntityService, private readonly policy: PermissionPolicy, readonly settings: EtaxSettings) {}

  /** The certificate, read once; a file that cannot be opened fails every signing request with the server's reason in the log. */
  signingKey(): Promise<SigningKey> | null {
    if (!this.settings.signing) return null;
    this.key ??= loadSigningKey(this.settings.signing);
    return this.key;
  }

  async files(entity: EntitySchema, id: number, ctx: RequestContext, flag: 'print' | 'email', cancellation: boolean): Promise<EtaxFiles & { doc: Awaited<ReturnType<typeof readDocument>> }> {
    const doc = await readDocument(this.service, this.policy, entity, id, ctx, flag);
    const model = await etaxDocumentFor(this.service, doc, cancellation);
    let xml = etaxXml(model);
    const message = ETAX_TYPES[model.typeCode].message;
    const key = SIGNED_MESSAGES.has(message) ? this.signingKey() : null;
    if (key) xml = await signEtaxXml(xml, await key);
    const base = pdfFileName(entity, doc.row, id).replace(/\.pdf$/, '');
    return { doc, xml, signed: Boolean(key), warnings: etaxWarnings(model), xmlFileName: `${base}${cancellation ? '-cancellation' : ''}.xml`, title: `${model.name} ${model.id}`, message };
  }

  async pdf(f: EtaxFiles & { doc: Awaited<ReturnType<typeof readDocument>> }, lang: 'th' | 'en'): Promise<Buffer> {
    const pdf = await renderDocumentPdf(f.doc, { lang });
    return toPdfA3({ pdf, xml: f.xml, xmlFileName: f.xmlFileName, title: f.title, documentType: XMP_TYPE[f.message] });
  }
}
