export type BranchLang = 'th' | 'en';

const WORDS = { th: { head: 'สำนักงานใหญ่', branch: 'สาขาที่' }, en: { head: 'Head office', branch: 'Branch' } } as const;

/**
 * A party's place of business as Thai tax documents name it (Revenue Department notice on tax
 * invoices: "สำนักงานใหญ่", or "สาขาที่" and the 5-digit branch number), from its branch code
 * (all zeros for the head office) and, for a branch, its name after the number. Null when no code is
 * recorded. The one wording of the printed documents, the POS slip and the tax reports' header.
 */
export function branchText(code: unknown, name: unknown, lang: BranchLang = 'th'): string | null {
  const c = code === null || code === undefined ? '' : String(code).trim();
  if (!c) return null;
  const w = WORDS[lang];
  if (/^0+$/.test(c)) return w.head;
  const n = name === null || name === undefined ? '' : String(name).trim();
  return `${w.branch} ${c}${n ? ` ${n}` : ''}`;
}
