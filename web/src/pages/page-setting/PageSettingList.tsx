import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { api } from '../../core/http-client.ts';
import { loc } from '../../core/i18n.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import './page-setting-i18n.ts';
import './page-setting.css';

interface PageRow { name: string; label: { th: string; en: string }; kind: string; menuGroup: string | null; parent: string | null; overrides: number }

/** /page_setting: every page that can be customised, with how many of its settings differ from the schema file. */
export default function PageSettingList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const [rows, setRows] = useState<PageRow[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [q, setQ] = useState('');

  useEffect(() => {
    api.get<{ data: PageRow[] }>('/api/page_setting').then((r) => setRows(r.data), (e) => { setError(e); setRows([]); });
  }, []);

  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const labelOf = (n: string | null) => (n ? loc(rows?.find((r) => r.name === n)?.label, lang) || n : '');
    return (rows ?? [])
      .filter((r) => !needle || r.name.includes(needle) || r.label.th.toLowerCase().includes(needle) || r.label.en.toLowerCase().includes(needle))
      .map((r) => ({ ...r, group: r.menuGroup ?? (r.parent ? t('ps.lines_of', { parent: labelOf(r.parent) }) : '') }))
      .sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name));
  }, [rows, q, lang, t]);

  const open = (name: string) => navigate(`/page_setting/${name}`);
  return (
    <section className="bo-page">
      <PageTitle>{t('route.page_setting')}</PageTitle>
      <p className="bo-muted" style={{ marginTop: 0 }}>{t('ps.intro')}</p>
      <ErrorBox error={error} />
      <div className="bo-toolbar">
        <span className="p-input-icon-left bo-search">
          <i className="pi pi-search" />
          <InputText value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('ps.search')} aria-label={t('ps.search')} data-testid="ps-search" />
        </span>
      </div>
      {rows === null ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-admin-table" data-testid="ps-pages">
            <thead><tr><th>{t('ps.page')}</th><th>{t('ps.key')}</th><th>{t('ps.group')}</th><th className="bo-num">{t('ps.changes')}</th></tr></thead>
            <tbody>
              {shown.length === 0 && <tr><td colSpan={4} className="bo-muted">{t('list.empty')}</td></tr>}
              {shown.map((r) => (
                <tr key={r.name} className="is-link" data-page={r.name} onClick={() => open(r.name)}>
                  <td><a href={`/page_setting/${r.name}`} onClick={(e) => { e.preventDefault(); e.stopPropagation(); open(r.name); }}>{loc(r.label, lang)}</a></td>
                  <td><span className="bo-key">{r.name}</span></td>
                  <td>{r.menuGroup ? t(`menu.${r.menuGroup}`, { defaultValue: r.menuGroup }) : r.group}</td>
                  <td className="bo-num">{r.overrides > 0 ? <span className="bo-ps-changed" title={t('ps.changed')}>{r.overrides}</span> : <span className="bo-muted">–</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
