/**
 * ETDA's own files of the e-Tax Invoice & e-Receipt standard (ขมธอ. 3-2560 v2.0): the XSDs and the
 * schematron, as published by ETDA and mirrored in the public repository
 * slime-systems/etda-mirror--e-tax-invoice-receipt (folders ETDA/ and uncefact/). They are not kept in
 * this repository (tests/etax/README.md says why and where they are looked for):
 * ETDA_STANDARD_DIR, else ../shared/etda-e-tax-invoice-receipt beside the repository.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import type { EtaxMessage } from '../../engine/etax/etax-codes.ts';

const candidates = [process.env.ETDA_STANDARD_DIR, resolve(import.meta.dirname, '../../../shared/etda-e-tax-invoice-receipt')].filter(Boolean) as string[];
/** The folder holding ETDA/data/standard/*.xsd, or null when this machine has none. */
export const ETDA_DIR = candidates.find((d) => existsSync(join(d, 'ETDA/data/standard/TaxInvoice_CrossIndustryInvoice_2p0.xsd'))) ?? null;
/** Why the standard's own checks are skipped here (printed by the tests that skip). */
export const ETDA_MISSING = `ETDA's XSDs were not found (set ETDA_STANDARD_DIR to a copy of the ETDA/ and uncefact/ folders; tests/etax/README.md)`;

const std = (f: string) => join(ETDA_DIR!, 'ETDA/data/standard', f);

/** xmllint's verdict on the XML against its message's XSD: '' when valid, else its messages. */
export function xsdErrors(xml: string, message: EtaxMessage): string {
  const dir = mkdtempSync(join(tmpdir(), 'etax-'));
  try {
    const file = join(dir, 'doc.xml');
    writeFileSync(file, xml);
    const r = spawnSync('xmllint', ['--noout', '--schema', std(`${message}_CrossIndustryInvoice_2p0.xsd`), file], { encoding: 'utf8' });
    if (r.error) throw r.error;
    return r.status === 0 ? '' : `${r.stderr}`.trim() || `xmllint exited ${r.status}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * ETDA's schematron run on the XML: every <sch:report> whose XPath 1.0 test is true for a node its rule's
 * context matches (a report is a failure in ETDA's files). Comments (rules ETDA switched off) are skipped
 * by the parser. Contexts are matched anywhere in the document, as schematron patterns are.
 */
export function schematronFailures(xml: string, message: EtaxMessage): string[] {
  const parse = (s: string) => new DOMParser().parseFromString(s, 'text/xml') as unknown as Node;
  const sch = parse(readFileSync(std(`${message}_Schematron_2p0.sch`), 'utf8'));
  const S = 'http://purl.oclc.org/dsdl/schematron';
  const ns: Record<string, string> = {};
  for (const n of xpath.useNamespaces({ sch: S })('//sch:ns', sch) as Element[]) ns[n.getAttribute('prefix')!] = n.getAttribute('uri')!;
  const select = xpath.useNamespaces(ns);
  const doc = parse(xml);
  const failures: string[] = [];
  for (const rule of xpath.useNamespaces({ sch: S })('//sch:rule', sch) as Element[]) {
    const context = rule.getAttribute('context')!;
    const nodes = select(context.startsWith('/') ? context : `//${context}`, doc) as Node[];
    for (const report of Array.from(rule.getElementsByTagNameNS(S, 'report'))) {
      for (const node of nodes) {
        if (select(`boolean(${report.getAttribute('test')})`, node)) failures.push(report.textContent!.replace(/\s+/g, ' ').trim());
      }
    }
  }
  return failures;
}
