import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AFRelationship, PDFDocument, PDFName, PDFString } from 'pdf-lib';

/** ETDA's XMP extension schema for the embedded e-Tax XML, in the manner of ZUGFeRD/Factur-X's "fx" schema. */
export const ETDA_XMP_NS = 'urn:etda:pdfa:CrossIndustryDocument:invoice:1p0#';

let icc: Buffer | null = null;
/** sRGB, the output intent PDF/A asks for; pdfkit (under pdfmake, which draws our PDFs) ships the profile. */
function srgbProfile(): Buffer {
  if (!icc) {
    const pdfkit = dirname(createRequire(import.meta.url).resolve('pdfkit/package.json'));
    icc = readFileSync(join(pdfkit, 'js/data/sRGB_IEC61966_2_1.icc'));
  }
  return icc;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function xmp(o: { title: string; fileName: string; documentType: string; created: string; producer: string }): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <pdfaid:part>3</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${esc(o.title)}</rdf:li></rdf:Alt></dc:title>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <xmp:CreateDate>${o.created}</xmp:CreateDate>
   <xmp:ModifyDate>${o.created}</xmp:ModifyDate>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdf:Producer>${esc(o.producer)}</pdf:Producer>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:fx="${ETDA_XMP_NS}">
   <fx:DocumentType>${esc(o.documentType)}</fx:DocumentType>
   <fx:DocumentFileName>${esc(o.fileName)}</fx:DocumentFileName>
   <fx:Version>2.0</fx:Version>
   <fx:ConformanceLevel>BASIC</fx:ConformanceLevel>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
   <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
    <pdfaSchema:schema>ETDA e-Tax Invoice &amp; e-Receipt PDF/A-3 schema</pdfaSchema:schema>
    <pdfaSchema:namespaceURI>${ETDA_XMP_NS}</pdfaSchema:namespaceURI>
    <pdfaSchema:prefix>fx</pdfaSchema:prefix>
    <pdfaSchema:property><rdf:Seq>
     ${['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel'].map((n) => `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${n}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${n} of the embedded e-Tax XML</pdfaProperty:description></rdf:li>`).join('\n     ')}
    </rdf:Seq></pdfaSchema:property>
   </rdf:li></rdf:Bag></pdfaExtension:schemas>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

export interface PdfA3Options {
  /** The document's own PDF (server/print/document-pdf.ts). */
  pdf: Uint8Array;
  xml: string;
  /** The attachment's name: ETDA's generator and the Revenue Department's e-mail service expect the XML as one attached file. */
  xmlFileName: string;
  title: string;
  /** fx:DocumentType, the ETDA type name in English capitals (TAX INVOICE, RECEIPT, CREDIT NOTE…). */
  documentType: string;
}

/**
 * The PDF as PDF/A-3b with the e-Tax XML as its associated file (/AF, AFRelationship /Source: the XML is
 * the data the visible document was made from, as ETDA's generator marks it), XMP metadata claiming
 * PDF/A-3 with ETDA's extension schema, and an sRGB output intent.
 */
export async function toPdfA3(o: PdfA3Options): Promise<Buffer> {
  const doc = await PDFDocument.load(o.pdf, { updateMetadata: false });
  const now = new Date();
  await doc.attach(Buffer.from(o.xml, 'utf8'), o.xmlFileName, {
    mimeType: 'text/xml', description: `e-Tax Invoice & e-Receipt XML (ETDA ขมธอ. 3-2560 v2.0)`,
    creationDate: now, modificationDate: now, afRelationship: AFRelationship.Source,
  });
  const created = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const producer = 'Thai back office';
  doc.setTitle(o.title);
  doc.setProducer(producer);
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  // the packet's bytes are UTF-8 (XMP's encoding, the BOM of its xpacket line says so): a JS string would be
  // written one byte per character, cutting the Thai title to control characters
  const packet = Buffer.from(xmp({ title: o.title, fileName: o.xmlFileName, documentType: o.documentType, created, producer }), 'utf8');
  const meta = doc.context.stream(packet, { Type: 'Metadata', Subtype: 'XML', Length: packet.length });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(meta));
  const profile = doc.context.stream(srgbProfile(), { N: 3 });
  const intent = doc.context.obj({
    Type: 'OutputIntent', S: 'GTS_PDFA1', OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'), Info: PDFString.of('sRGB IEC61966-2.1'),
    DestOutputProfile: doc.context.register(profile),
  });
  doc.catalog.set(PDFName.of('OutputIntents'), doc.context.obj([doc.context.register(intent)]));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
