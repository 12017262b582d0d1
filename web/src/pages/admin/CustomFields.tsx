import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Dropdown } from 'primereact/dropdown';
import { Checkbox } from 'primereact/checkbox';
import { useAtomValue } from 'jotai';
import { roleAtom } from '../../core/app-data.ts';
import { api } from '../../core/http-client.ts';
import { clearMetaCache, fetchEntitySummaries, type EntitySummary } from '../../core/entity-meta.ts';
import { loc } from '../../core/i18n.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox, formatDateTime, isAdministrator } from './admin-common.tsx';
import { parseOptions } from './custom-field-options.ts';

interface CustomFieldRow {
  id: number; entity: string; name: string; type: string; label: { th: string; en: string };
  required: boolean; options: { value: string; label: { th: string; en: string } }[] | null; active: boolean; created_at: string;
}
const EMPTY = { name: '', type: 'string', th: '', en: '', required: false, options: '' };

/**
 * /custom_field (administrators): the fields added to an entity at run time. Adding creates
 * the column at once (no restart); removing hides the field and keeps its data, and adding
 * the same name and type again brings the data back. Anyone else opening the path (the menu does
 * not list it for them) reads that it is for administrators, with no table or form: the server
 * refuses each of its calls with 403 anyway.
 */
export default function CustomFields() {
  const { t } = useTranslation();
  const role = useAtomValue(roleAtom);
  if (role.status === 'loading') return <Spinner />;
  if (role.status !== 'loaded' || !isAdministrator(role.data.role_detail as never)) {
    return <section className="bo-page" data-testid="custom-fields-page"><PageTitle>{t('route.custom_field')}</PageTitle><p className="bo-admin-note" data-testid="custom-fields-admin-only">{t('admin.only_admins')}</p></section>;
  }
  return <CustomFieldsAdmin />;
}

function CustomFieldsAdmin() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [entities, setEntities] = useState<EntitySummary[]>([]);
  // chosen once the list arrives: the first entity documents are made out to (the customers), where fields are most often added
  const [entity, setEntity] = useState<string>('');
  const [rows, setRows] = useState<CustomFieldRow[] | null>(null);
  const [types, setTypes] = useState<string[]>([]);
  const [draft, setDraft] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    fetchEntitySummaries().then((list) => {
      const usable = list.filter((e) => e.kind !== 'lines' && e.kind !== 'ledger');
      setEntities(usable);
      setEntity((now) => now || (usable.find((e) => e.party) ?? usable[0])?.name || '');
    }, setError);
  }, []);
  useEffect(() => {
    if (!entity) return;
    setRows(null);
    api.get<{ data: CustomFieldRow[]; meta: { types: string[] } }>('/api/custom_field', { searchParams: { entity } })
      .then((r) => { setRows(r.data); setTypes(r.meta.types); }, (e) => { setError(e); setRows([]); });
  }, [entity, reload]);

  const entityOptions = useMemo(() => entities.map((e) => ({ value: e.name, label: `${loc(e.labelPlural ?? e.label, lang)} (${e.name})` })), [entities, lang]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/api/custom_field', {
        entity, name: draft.name, type: draft.type, label: { th: draft.th, en: draft.en || draft.th }, required: draft.required,
        ...(draft.type === 'enum' ? { options: parseOptions(draft.options) } : {}),
      });
      // the forms and lists read the schema again on their next opening
      clearMetaCache();
      setDraft(EMPTY);
      toast('success', t('common.saved'));
      setReload((n) => n + 1);
    } catch (err) { setError(err); }
  };
  const remove = async (r: CustomFieldRow) => {
    setError(null);
    try {
      await api.delete(`/api/custom_field/${r.id}`);
      clearMetaCache();
      toast('success', t('cf.removed'));
      setReload((n) => n + 1);
    } catch (err) { setError(err); }
  };

  return (
    <section className="bo-page" data-testid="custom-fields-page">
      <PageTitle>{t('route.custom_field')}</PageTitle>
      <p className="bo-admin-note">{t('cf.note')}</p>
      <label className="bo-field" style={{ maxWidth: 420 }}>
        <span>{t('cf.entity')}</span>
        <Dropdown inputId="cf-entity" value={entity} options={entityOptions} onChange={(e) => setEntity(e.value as string)} filter />
      </label>
      <ErrorBox error={error} />
      {rows === null ? <Spinner /> : (
        <table className="bo-admin-table" data-testid="custom-field-table" style={{ margin: '12px 0' }}>
          <thead><tr><th>{t('cf.name')}</th><th>{t('cf.label')}</th><th>{t('cf.type')}</th><th>{t('cf.required')}</th><th>{t('cf.status')}</th><th>{t('cf.created')}</th><th /></tr></thead>
          <tbody>
            {rows.length === 0 && <tr><td colSpan={7} className="bo-muted">{t('list.empty')}</td></tr>}
            {rows.map((r) => (
              <tr key={r.id} data-name={r.name}>
                <td className="bo-key">{r.name}</td>
                <td>{loc(r.label, lang)}</td>
                <td>{r.type}{r.options ? `: ${r.options.map((o) => o.value).join(', ')}` : ''}</td>
                <td>{r.required ? '✓' : ''}</td>
                <td className={r.active ? 'bo-status-on' : 'bo-status-off'}>{r.active ? t('cf.active') : t('cf.inactive')}</td>
                <td>{formatDateTime(r.created_at, lang)}</td>
                <td>{r.active && <Button icon="pi pi-eye-slash" text severity="danger" label={t('cf.remove')} onClick={() => void remove(r)} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={add} aria-label={t('cf.add')}>
        <h3>{t('cf.add')}</h3>
        <div className="bo-admin-row">
          <label className="bo-field"><span>{t('cf.name')}</span><InputText name="cf-name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} required placeholder="cf_..." /></label>
          <label className="bo-field"><span>{t('cf.type')}</span><Dropdown inputId="cf-type" value={draft.type} options={types} onChange={(e) => setDraft({ ...draft, type: e.value as string })} /></label>
          <label className="bo-field"><span>{t('cf.label_th')}</span><InputText name="cf-label-th" value={draft.th} onChange={(e) => setDraft({ ...draft, th: e.target.value })} required /></label>
          <label className="bo-field"><span>{t('cf.label_en')}</span><InputText name="cf-label-en" value={draft.en} onChange={(e) => setDraft({ ...draft, en: e.target.value })} /></label>
          <label className="bo-field" style={{ flex: '0 0 auto' }}><span>{t('cf.required')}</span><Checkbox inputId="cf-required" checked={draft.required} onChange={(e) => setDraft({ ...draft, required: !!e.checked })} /></label>
        </div>
        {draft.type === 'enum' && (
          <label className="bo-field"><span>{t('cf.options')}</span><InputTextarea name="cf-options" rows={4} value={draft.options} onChange={(e) => setDraft({ ...draft, options: e.target.value })} placeholder={'gold = ทอง / Gold\nsilver = เงิน / Silver'} /></label>
        )}
        <Button type="submit" icon="pi pi-plus" label={t('cf.add')} style={{ marginTop: 8 }} />
      </form>
    </section>
  );
}
