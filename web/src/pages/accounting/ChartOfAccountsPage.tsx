import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, type ApiError } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { DateInput } from '../../renderer/fields/DateInput.tsx';
import { useEntitySchema } from '../../core/use-entity-schema.ts';
import { loc } from '../../core/i18n.ts';
import { fetchReports, type ReportAnswer, type ReportSummary } from '../reports/report-api.ts';
import { fillLink } from '../reports/report-links.ts';
import { buildTree, statementSign, type AccountRow, type Figures, type TreeNode } from './account-tree.ts';
import './accounting-i18n.ts';

/** The report whose closing balances the tree shows, and whose account link (to the general ledger) a row opens. */
const BALANCES_REPORT = 'trial_balance';
const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PAGE = 500;
/**
 * The balances report's parameter that leaves out the year-end closing entry: a P&L figure's drill-down sends it, as
 * the P&L leaves that entry out (else a closed year's income opens at zero); the whole chart goes without it.
 */
const WITHOUT_CLOSING = 'without_closing';
const withoutKey = (o: Record<string, string>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** Every account of the chart (the list answers at most 500 a page). */
async function allAccounts(entity: string): Promise<AccountRow[]> {
  const out: AccountRow[] = [];
  for (let page = 1; ; page++) {
    const r = await api.get<{ data: AccountRow[] }>(`/api/${entity}`, { searchParams: { limit: PAGE, page, sort: 'code', fields: 'id,code,name_th,name_en,account_type,parent_id,is_group,is_active,dbd_line' } });
    out.push(...r.data);
    if (r.data.length < PAGE) return out;
  }
}

/**
 * The chart of accounts as a tree (issue 50 §6): headings (`is_group`) hold the accounts whose `parent_id` names
 * them, each account with its opening balance, movement and closing balance from the trial balance for the dates and
 * company chosen (debit positive), a heading with the sums of its accounts; an account opens its general ledger for
 * the same dates and company (the trial balance's own account link). The address gives the dates and company, and
 * `dbd_line` shows only the accounts of one statement line (a balance sheet or P&L figure opens them), signed as the
 * statement signs them (income, liabilities and equity credit-positive) with their total, so they add up to the
 * figure clicked. Without the right to the trial balance the tree shows no balances.
 */
export default function ChartOfAccountsPage({ entity, titleKey }: { entity: string; titleKey: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [accounts, setAccounts] = useState<AccountRow[] | null>(null);
  const [report, setReport] = useState<ReportSummary | null | undefined>(undefined);
  // the address gives the balances report's parameters (the dates, the company) and a statement line (a balance sheet or P&L figure's drill-down)
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => Object.fromEntries((report?.parameters ?? []).map((p) => p.name).filter((k) => search.get(k)).map((k) => [k, search.get(k)!])), [search, report]);
  const line = search.get('dbd_line');
  const schema = useEntitySchema(entity);
  const lineOption = schema.status === 'ready' ? schema.meta.entity.fields.dbd_line?.options?.find((o) => o.value === line) : undefined;
  const lineLabel = lineOption ? loc(lineOption.label, i18n.language) : line;
  const [applied, setApplied] = useState<Record<string, unknown>>({});
  const [balances, setBalances] = useState<Map<string, Figures> | null>(null);
  const [companies, setCompanies] = useState<{ id: number; text: string }[]>([]);
  const [closed, setClosed] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void allAccounts(entity).then(setAccounts, (e: ApiError) => setError(e.message));
    fetchReports().then((list) => setReport(list.find((r) => r.name === BALANCES_REPORT) ?? null), () => setReport(null));
  }, [entity]);

  const companyParam = report?.parameters.find((p) => p.type === 'link');
  useEffect(() => {
    if (!companyParam?.entity) return;
    api.get<{ data: Record<string, unknown>[] }>(`/api/${companyParam.entity}`, { searchParams: { limit: PAGE } })
      .then((r) => setCompanies(r.data.map((x) => ({ id: Number(x.id), text: [x.code, x.name_th].filter(Boolean).join(' ') }))), () => setCompanies([]));
  }, [companyParam?.entity]);

  const key = JSON.stringify(params);
  useEffect(() => {
    if (!report) return;
    let live = true;
    // the report's rows are the accounts with entries: at most one page of 1,000 in any real chart
    api.get<ReportAnswer>(`/api/report/${report.name}`, { searchParams: { ...params, limit: 1000 } }).then((r) => {
      if (!live) return;
      setApplied(r.meta.parameters);
      setBalances(new Map(r.data.rows.map((row) => [String(row.account_code), { opening: Number(row.opening_balance ?? 0), closing: Number(row.closing_balance ?? 0) }])));
    }, (e: ApiError) => live && setError(e.message));
    return () => { live = false; };
  }, [report, key]); // eslint-disable-line react-hooks/exhaustive-deps

  // a statement line shows its accounts (under no headings: a heading of the chart may hold accounts of other lines)
  const shownAccounts = useMemo(() => (accounts && line ? accounts.filter((a) => a.dbd_line === line) : accounts), [accounts, line]);
  const tree = useMemo(() => (shownAccounts ? buildTree(shownAccounts, balances ?? new Map(), line ? statementSign : undefined) : []), [shownAccounts, balances, line]);
  const lineTotal = line && balances ? tree.reduce((s, n) => ({ opening: s.opening + n.opening, balance: s.balance + n.balance }), { opening: 0, balance: 0 }) : null;
  const accountLink = report?.columns.find((c) => c.key === 'account_code')?.link;
  const shownParams: Record<string, unknown> = { ...applied, ...params };
  const set = (name: string, v: string | null) => setSearch((p) => { const n = new URLSearchParams(p); if (v) n.set(name, v); else n.delete(name); return n; }, { replace: true });
  const allGroups = (nodes: TreeNode[]): number[] => nodes.flatMap((n) => (n.children.length ? [n.account.id, ...allGroups(n.children)] : []));

  const rows: React.ReactNode[] = [];
  const walk = (nodes: TreeNode[], depth: number) => {
    for (const n of nodes) {
      const a = n.account;
      const group = a.is_group || n.children.length > 0;
      const open = !closed.has(a.id);
      const name = lang === 'en' && a.name_en ? a.name_en : a.name_th;
      const href = !group && accountLink ? fillLink(accountLink, { account_code: a.code }, shownParams) : undefined;
      rows.push(
        <tr key={a.id} data-testid="account-tree-row" data-code={a.code} data-group={group ? '' : undefined} className={group ? 'bo-tree-group' : undefined}>
          <td style={{ paddingLeft: `${0.5 + depth * 1.25}rem`, whiteSpace: 'nowrap' }}>
            {n.children.length > 0
              ? <button type="button" className="bo-tree-toggle" aria-expanded={open} aria-label={`${open ? t('ledger.tree_collapse') : t('ledger.tree_expand')} ${a.code}`}
                onClick={() => setClosed((s) => { const x = new Set(s); if (open) x.add(a.id); else x.delete(a.id); return x; })}>
                <i className={`pi ${open ? 'pi-chevron-down' : 'pi-chevron-right'}`} aria-hidden="true" />
              </button>
              : <span className="bo-tree-spacer" />}
            {href ? <Link to={href} data-testid="account-tree-link">{a.code}</Link> : <span>{a.code}</span>}
          </td>
          <td>{href ? <Link to={href}>{name}</Link> : name}{a.is_active === false && <span className="bo-muted"> ✕</span>}</td>
          <td className="bo-num-cell" data-col="opening">{balances ? MONEY.format(n.opening / 100) : ''}</td>
          <td className="bo-num-cell" data-col="movement">{balances ? MONEY.format((n.balance - n.opening) / 100) : ''}</td>
          <td className="bo-num-cell" data-col="balance">{balances ? MONEY.format(n.balance / 100) : ''}</td>
          <td className="bo-tree-edit"><Link to={`/${entity}/${a.id}`} aria-label={`${a.code} ${name}`} title={name}><i className="pi pi-pencil" aria-hidden="true" /></Link></td>
        </tr>,
      );
      if (open) walk(n.children, depth + 1);
    }
  };
  walk(tree, 0);

  return (
    <section className="bo-page" data-testid="account-tree">
      <PageTitle actions={<Link className="p-button p-button-outlined p-button-sm" to={`/${entity}`}>{t('ledger.tree_list')}</Link>}>{t(titleKey)}</PageTitle>
      {report && (
        <div className="bo-report-params" style={{ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'flex-end', marginBottom: '0.75rem' }}>
          <label className="bo-picker" style={{ display: 'flex', flexDirection: 'column', gap: '0.25rem' }}>
            <span>{t('ledger.tree_from')}</span>
            <DateInput value={String(shownParams.date_from ?? '')} lang={lang} ariaLabel={t('ledger.tree_from')} onChange={(v) => set('date_from', v || null)} />
          </label>
          <label className="bo-picker" style={{ display: 'flex', flexDirection: 'column', gap: '0.25rem' }}>
            <span>{t('ledger.tree_as_of')}</span>
            <DateInput value={String(shownParams.date_to ?? '')} lang={lang} ariaLabel={t('ledger.tree_as_of')} onChange={(v) => set('date_to', v || null)} />
          </label>
          {companyParam && (
            <label className="bo-picker" style={{ display: 'flex', flexDirection: 'column', gap: '0.25rem' }}>
              <span>{t('ledger.tree_company')}</span>
              <select className="p-inputtext p-component" data-testid="account-tree-company" value={params[companyParam.name] ?? ''} onChange={(e) => set(companyParam.name, e.target.value || null)}>
                <option value="">{t('ledger.tree_all_companies')}</option>
                {companies.map((c) => <option key={c.id} value={c.id}>{c.text}</option>)}
              </select>
            </label>
          )}
          <button type="button" className="p-button p-button-text p-button-sm" onClick={() => setClosed(new Set())}>{t('ledger.tree_expand')}</button>
          <button type="button" className="p-button p-button-text p-button-sm" onClick={() => setClosed(new Set(allGroups(tree)))}>{t('ledger.tree_collapse')}</button>
        </div>
      )}
      {line && (
        <p data-testid="account-tree-line">
          {t('ledger.tree_line', { line: lineLabel })}{params[WITHOUT_CLOSING] ? ` · ${t('ledger.tree_without_closing')}` : ''}{' '}
          <Link to={`/${entity}/tree?${new URLSearchParams(withoutKey(params, WITHOUT_CLOSING)).toString()}`}>{t('ledger.tree_all')}</Link>
        </p>
      )}
      <p className="bo-muted">{t(line ? 'ledger.tree_hint_line' : 'ledger.tree_hint')}</p>
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {!accounts && !error ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-table bo-account-tree">
            <thead>
              <tr>
                <th scope="col">{t('ledger.tree_code')}</th>
                <th scope="col">{t('ledger.tree_name')}</th>
                <th scope="col" className="bo-num-cell">{t('ledger.tree_opening')}</th>
                <th scope="col" className="bo-num-cell">{t('ledger.tree_movement')}</th>
                <th scope="col" className="bo-num-cell">{t('ledger.tree_balance')}</th>
                <th scope="col"><span className="bo-sr-only">{t('common.edit')}</span></th>
              </tr>
            </thead>
            <tbody>{rows}</tbody>
            {lineTotal && (
              <tfoot>
                <tr data-testid="account-tree-total" className="bo-tree-group">
                  <td colSpan={2}>{t('ledger.tree_line_total')}</td>
                  <td className="bo-num-cell" data-col="opening">{MONEY.format(lineTotal.opening / 100)}</td>
                  <td className="bo-num-cell" data-col="movement">{MONEY.format((lineTotal.balance - lineTotal.opening) / 100)}</td>
                  <td className="bo-num-cell" data-col="balance">{MONEY.format(lineTotal.balance / 100)}</td>
                  <td />
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
    </section>
  );
}
