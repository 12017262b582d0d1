import type { EntitySchema } from './schema-types.ts';
import type { JournalAmount, JournalVariant } from './journal-spec-types.ts';

type Bad = (at: string, why: string) => void;

/**
 * `document.journal` names fields and account roles the posting module reads without knowing the document:
 * a wrong name fails at start, not at the first posting. The roles are the options of `account.role`.
 */
export function checkJournalKeys(e: EntitySchema, byName: Map<string, EntitySchema>, bad: Bad): void {
  const j = e.document?.journal;
  if (!j) return;
  const account = byName.get('account');
  const roles = new Set((account?.fields.role?.options ?? []).map((o) => o.value));
  // checked when the set has the chart (a test may load a few schemas); without it nothing posts
  if (j.party) {
    const f = e.fields[j.party];
    if (f?.type !== 'link' || !['customer', 'supplier'].includes(f.entity ?? '')) bad('/document/journal/party', `"${j.party}" is not a link to customer or supplier`);
  }
  for (const key of ['company', 'toCompany'] as const) {
    const path = j[key];
    if (!path) continue;
    const [link, field] = path.split('.') as [string, string];
    const f = e.fields[link];
    const target = f?.type === 'link' ? byName.get(f.entity ?? '') : undefined;
    if (!f || f.type !== 'link' || (target && target.fields[field]?.type !== 'link')) bad(`/document/journal/${key}`, `"${path}" is not a link's link to the company`);
  }
  if (!e.workflow) bad('/document/journal', 'a document with a journal needs a workflow (its post and cancel actions)');
  const money = (at: string, name: string, of: EntitySchema | undefined) => { if (of?.fields[name]?.type !== 'money') bad(at, `"${name}" is not a money field`); };
  const amount = (at: string, a: JournalAmount) => {
    if (typeof a === 'string') return money(at, a, e);
    if ('stock' in a) { if (!e.document?.stock) bad(at, 'a stock amount needs document.stock'); return; }
    if ('saleBalance' in a) {
      if (account && !roles.has(a.saleBalance)) bad(at, `"${a.saleBalance}" is not a role of account.role`);
      if (!e.document?.lines || !(e.document?.from ?? []).length) bad(at, 'a sale balance needs document.lines made from a source (document.from)');
      if (at.includes('/returns')) bad(at, 'a sale balance is not taken by a change (returns)');
      return money(`${at}/upTo`, a.upTo, e);
    }
    if ('sourceValue' in a) {
      const src = byName.get(a.sourceValue);
      if (!(e.document?.from ?? []).some((f) => f.source === a.sourceValue) || !src?.document?.stock) bad(at, `"${a.sourceValue}" is not a stock document of document.from`);
      if (at.includes('/returns')) bad(at, 'a source value is not taken by a change (returns)');
      return;
    }
    const lf = e.fields[a.lines];
    if (lf?.type !== 'lines') { bad(at, `"${a.lines}" is not a lines field`); return; }
    money(`${at}/amount`, a.amount, byName.get(lf.entity ?? ''));
  };
  const variants = [...j.variants, ...(j.returns ? [{ name: j.returns.name, lines: j.returns.lines }] : [])];
  variants.forEach((v: JournalVariant, vi) => {
    const at = vi < j.variants.length ? `/document/journal/variants/${vi}` : '/document/journal/returns';
    for (const f of Object.keys(v.when ?? {})) if (!e.fields[f]) bad(`${at}/when`, `no field "${f}"`);
    if ((v.betweenCompanies || v.lines.some((l) => l.toCompany)) && !j.toCompany) bad(at, 'betweenCompanies and toCompany lines need journal.toCompany');
    if (v.fromSource && !(e.document?.from ?? []).some((s) => s.source === v.fromSource)) bad(`${at}/fromSource`, `"${v.fromSource}" is not a source of document.from`);
    v.lines.forEach((l, li) => {
      const lat = `${at}/lines/${li}`;
      const named = typeof l.role === 'string' ? [l.role] : Object.values(l.role.roles);
      for (const r of named) if (account && !roles.has(r)) bad(`${lat}/role`, `"${r}" is not a role of account.role`);
      if ((l.debit === undefined) === (l.credit === undefined)) bad(lat, 'a line has a debit or a credit, not both');
      const a = l.debit ?? l.credit;
      if (a !== undefined) amount(lat, a);
      if (l.party && !j.party) bad(`${lat}/party`, 'the journal names no party field');
      if (typeof l.role !== 'string' && (typeof a === 'string' || (a && !('lines' in a))) && !e.fields[l.role.field]) bad(`${lat}/role/field`, `no header field "${l.role.field}"`);
    });
  });
}
