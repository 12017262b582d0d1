import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import forge from 'node-forge';
import * as xmldom from '@xmldom/xmldom';
import xpath from 'xpath';
import * as xadesjs from 'xadesjs';

/**
 * XAdES-BES signing of the e-Tax XML with the company's certificate: a PKCS#12 file and its password from
 * the environment (ETAX_P12_PATH, ETAX_P12_PASSWORD). The key never leaves the server and no endpoint
 * gives out the certificate: the status says only whether one is configured and whom it names.
 */
let ready = false;
function setUp(): void {
  if (ready) return;
  xadesjs.setNodeDependencies({ XMLSerializer: xmldom.XMLSerializer, DOMParser: xmldom.DOMParser, DOMImplementation: xmldom.DOMImplementation, xpath } as never);
  xadesjs.Application.setEngine('NodeJS', webcrypto as unknown as Crypto);
  ready = true;
}

export interface SigningSettings { p12: Buffer; password: string }

/** ETAX_P12_PATH and ETAX_P12_PASSWORD, both or neither (a half setting is a mistake the server reports at start). */
export function readSigningSettings(env: NodeJS.ProcessEnv): SigningSettings | null {
  const path = env.ETAX_P12_PATH?.trim();
  if (!path) return null;
  return { p12: readFileSync(path), password: env.ETAX_P12_PASSWORD ?? '' };
}

export interface SigningKey {
  key: CryptoKey;
  /** The certificate, DER in base64, as KeyInfo and SigningCertificate carry it. */
  certificate: string;
  subject: string;
  notAfter: Date;
}

/** The private key and its certificate out of a PKCS#12 file; throws a plain message when it cannot be read. */
export async function loadSigningKey(s: SigningSettings): Promise<SigningKey> {
  setUp();
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(s.p12.toString('binary'))), s.password);
  } catch {
    throw new Error('ETAX_P12_PATH is not a PKCS#12 file that ETAX_P12_PASSWORD opens');
  }
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBag = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)][0];
  const certBag = bags(forge.pki.oids.certBag!)[0];
  if (!keyBag?.key || !certBag?.cert) throw new Error('The PKCS#12 file of ETAX_P12_PATH holds no private key and certificate');
  const pkcs8 = forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key))).getBytes();
  const key = await webcrypto.subtle.importKey('pkcs8', Buffer.from(pkcs8, 'binary'), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']) as unknown as CryptoKey;
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(certBag.cert)).getBytes();
  return {
    key, certificate: Buffer.from(der, 'binary').toString('base64'),
    subject: certBag.cert.subject.attributes.map((a: forge.pki.CertificateField) => `${a.shortName ?? a.name}=${String(a.value)}`).join(', '),
    notAfter: certBag.cert.validity.notAfter,
  };
}

/** The XML with an enveloped XAdES-BES signature (SHA-256, the certificate in KeyInfo and SigningCertificate). */
export async function signEtaxXml(xml: string, k: SigningKey): Promise<string> {
  setUp();
  const doc = xadesjs.Parse(xml);
  const signed = new xadesjs.SignedXml();
  await signed.Sign({ name: 'RSASSA-PKCS1-v1_5' } as Algorithm, k.key, doc, {
    x509: [k.certificate], signingCertificate: k.certificate, signingTime: { value: new Date() },
    references: [{ uri: '', hash: 'SHA-256', transforms: ['enveloped', 'c14n'] }],
  } as never);
  doc.documentElement.appendChild(signed.GetXml()!);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new xmldom.XMLSerializer().serializeToString(doc.documentElement as never)}`;
}

/** Whether the signature of a signed e-Tax XML verifies (used by the tests, and by anyone checking a file). */
export async function verifyEtaxXml(xml: string): Promise<boolean> {
  setUp();
  const doc = xadesjs.Parse(xml);
  const sig = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0];
  if (!sig) return false;
  const signed = new xadesjs.SignedXml(doc);
  signed.LoadXml(sig);
  // a changed document fails its digest with an error rather than false
  return signed.Verify().catch(() => false);
}
