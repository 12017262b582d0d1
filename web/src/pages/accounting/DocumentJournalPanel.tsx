import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { fetchEntitySummaries } from '../../core/entity-meta.ts';
import { formatLocal, isoDateToLocal } from '../../core/thai-dates.ts';
import type { FormPanelProps } from '../../renderer/form/form-panels.ts';
import './accounting-i18n.ts';

interface Line { account_id: number; account_code: string; account_name_th: string; account_name_en: string | null; debit: number; credit: number; description: string | null }
interface Entry { id: number; doc_no: string; doc_date: string; status: string; memo: string | null; reverses_id: number | null; lines: Line[] }
interface Answer { entity: string; entries: Entry[] }

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (v: number) => (v ? MONEY.format(v) : '');

/**
 * รายการบัญชี under a posted document's form (issue 50 §6): the entries it wrote (GET /api/{entity}/{id}/journal),
 * the posting and, after a cancel, its reversal; each line's account code and name, debit, credit and description,
 * and a link to the entry. A role that does not see the books asks nothing (the server would answer 403) and sees nothing here.
 */
export function DocumentJournalPanel({ entity, id, record }: FormPanelProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [answer, setAnswer] = useState<Answer | null>(null);
  const stamp = `${String(record[entity.workflow?.field ?? 'status'] ?? '')}:${String(record.updated_at ?? '')}`;
  useEffect(() => {
    let live = true;
    // a role that does not see the journal (it is not among the entities the server lists for it) asks nothing: the answer would be 403
    fetchEntitySummaries().then((all) => all.some((e) => e.holds === 'journalEntries'), () => true)
      .then((sees) => (sees ? api.get<{ data: Answer }>(`/api/${entity.name}/${id}/journal`).then((r) => r.data) : null))
      .then((data) => live && setAnswer(data), () => live && setAnswer(null));
    return () => { live = false; };
  }, [entity.name, id, stamp]);
  if (!answer || answer.entries.length === 0) return null;
  const date = (iso: string) => { const d = isoDateToLocal(iso); return d ? formatLocal(d, lang) : iso; };
  return (
    <section className="bo-journal-panel" aria-label={t('ledger.journal_title')} data-testid="document-journal">
      <h2>{t('ledger.journal_title')}</h2>
      {answer.entries.map((e) => {
        // summed in satang: 0.10 + 0.20 is 0.30, and a total is never a float's 0.30000000000000004 rounded another way
        const debit = e.lines.reduce((s, l) => s + Math.round(l.debit * 100), 0) / 100;
        const credit = e.lines.reduce((s, l) => s + Math.round(l.credit * 100), 0) / 100;
        return (
          <div key={e.id} className="bo-journal-entry" data-testid="document-journal-entry" data-reversal={e.reverses_id !== null ? '' : undefined}>
            <div className="bo-journal-head">
              <Link to={`/${answer.entity}/${e.id}`} data-testid="document-journal-link">{e.doc_no}</Link>
              <span className="bo-muted"> · {date(e.doc_date)}</span>
              {e.reverses_id !== null && <span className="bo-journal-reversal"> · {t('ledger.reversal')}</span>}
              {e.memo && <span className="bo-muted"> · {e.memo}</span>}
            </div>
            <table className="bo-table bo-journal-lines">
              <thead>
                <tr>
                  <th scope="col">{t('ledger.account')}</th>
                  <th scope="col">{t('ledger.description')}</th>
                  <th scope="col" className="bo-num-cell">{t('ledger.debit')}</th>
                  <th scope="col" className="bo-num-cell">{t('ledger.credit')}</th>
                </tr>
              </thead>
              <tbody>
                {e.lines.map((l, i) => (
                  <tr key={i}>
                    <td><span className="bo-journal-code">{l.account_code}</span> {lang === 'en' && l.account_name_en ? l.account_name_en : l.account_name_th}</td>
                    <td>{l.description ?? ''}</td>
                    <td className="bo-num-cell">{money(l.debit)}</td>
                    <td className="bo-num-cell">{money(l.credit)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td colSpan={2}><strong>{t('ledger.total')}</strong></td>
                  <td className="bo-num-cell"><strong>{MONEY.format(debit)}</strong></td>
                  <td className="bo-num-cell"><strong>{MONEY.format(credit)}</strong></td>
                </tr>
              </tfoot>
            </table>
          </div>
        );
      })}
    </section>
  );
}
