import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputNumber } from 'primereact/inputnumber';
import { api } from '../../core/http-client.ts';
import { loc } from '../../core/i18n.ts';
import { useCan } from '../../core/permissions.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { loadAdminRecord, saveAdminRecord } from './admin-record.ts';
import { ErrorBox } from './admin-common.tsx';
import { ALL_KEY, FLAGS, columnAll, effective, isExplicit, parseRoleDetail, rowAll, serialize, setFlag, toggleColumn, toggleRow, unknownKeys, type Flag, type RoleDetail } from './role-matrix-model.ts';

interface MenuKeyGroup { key: string; label: { th: string; en: string }; items: { key: string; label: { th: string; en: string } }[] }
interface RoleRow { id: number; name: string; role_detail: unknown; production_report_print_times: number | null; description: string | null }

/** /user_role/{id}: the role's flags as a matrix (menu keys × view/edit/print/export/email), never JSON text. */
export default function RoleEditor({ entity = '' }: { entity?: string }) {
  const { id } = useParams();
  const isCreate = !id || id === 'create';
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const canEdit = useCan(entity, 'edit');
  const [groups, setGroups] = useState<MenuKeyGroup[] | null>(null);
  const [name, setName] = useState('');
  const [printTimes, setPrintTimes] = useState<number | null>(1);
  const [description, setDescription] = useState('');
  const [detail, setDetail] = useState<RoleDetail>({});
  const [loadError, setLoadError] = useState<unknown>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [missing, setMissing] = useState(false);
  const [loaded, setLoaded] = useState(isCreate);
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  // the refusal shows at the top of the form, in view, not under a long matrix
  useEffect(() => { if (saveError) errorRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' }); }, [saveError]);

  useEffect(() => {
    api.get<{ data: MenuKeyGroup[] }>('/api/role_matrix/menu_keys').then((r) => setGroups(r.data), (e) => { setGroups([]); setLoadError(e); });
    if (isCreate) return;
    // the built-in Customer role is -1
    loadAdminRecord<RoleRow>(entity, id!, {
      row: (d) => {
        setName(d.name ?? '');
        setPrintTimes(d.production_report_print_times ?? null);
        setDescription(d.description ?? '');
        setDetail(parseRoleDetail(d.role_detail));
        setLoaded(true);
      },
      missing: () => setMissing(true), error: setLoadError,
    }, /^-?[1-9][0-9]*$/);
  }, [entity, id, isCreate]);

  const allKeys = useMemo(() => [ALL_KEY, ...(groups ?? []).flatMap((g) => g.items.map((i) => i.key))], [groups]);
  const extra = useMemo(() => unknownKeys(detail, allKeys), [detail, allKeys]);
  const columnKeys = useMemo(() => [...allKeys, ...extra], [allKeys, extra]);

  if (missing) return <NotFound />;
  if (!loaded || groups === null) return loadError ? <section className="bo-page"><ErrorBox error={loadError} title={t('admin.load_failed')} /></section> : <Spinner />;
  const builtin = Number(id) === -1;
  const readOnly = builtin || !canEdit;
  const change = (next: RoleDetail) => { setDetail(next); setDirty(true); };

  const save = async () => {
    setSaveError(null);
    if (!name.trim()) { setSaveError(new Error(`${t('role.name')}: ${t('validation.required', { defaultValue: 'is required' })}`)); return; }
    setSaving(true);
    const body = { name: name.trim(), production_report_print_times: printTimes, description: description || null, role_detail: serialize(detail) };
    if (await saveAdminRecord(entity, isCreate ? undefined : id, body, { t, navigate }, setSaveError)) setDirty(false);
    setSaving(false);
  };

  const flagLabel = (f: Flag) => t(`role.flag.${f}`);
  const row = (key: string, label: string, star = false) => (
    <tr key={key} className={star ? 'bo-matrix-star' : undefined} data-key={key}>
      <td>
        {label}
        {!star && <span className="bo-key">{key}</span>}
        {star && <div className="bo-muted" style={{ fontSize: 12 }}>{t('role.all_menus_hint')}</div>}
      </td>
      {FLAGS.map((f) => {
        const on = effective(detail, key, f);
        const inherited = !isExplicit(detail, key, f) && on;
        return (
          <td key={f}>
            <input
              type="checkbox" checked={on} disabled={readOnly}
              className={inherited ? 'is-inherited' : undefined}
              title={inherited ? t('role.inherited') : undefined}
              aria-label={`${label} ${flagLabel(f)}`}
              onChange={(e) => change(setFlag(detail, key, f, e.target.checked))}
            />
          </td>
        );
      })}
      <td>
        <input type="checkbox" checked={rowAll(detail, key)} disabled={readOnly} aria-label={`${label} ${t('role.whole_row')}`} onChange={() => change(toggleRow(detail, key))} />
      </td>
    </tr>
  );

  return (
    <section className="bo-page">
      <PageTitle actions={<Link to={`/${entity}`} className="p-button p-button-text">{t('common.back')}</Link>}>
        {isCreate ? t('form.create_title', { entity: t(`route.${entity}`) }) : `${t(`route.${entity}`)}: ${name}`}
      </PageTitle>
      {builtin && <p className="bo-admin-note">{t('role.builtin_customer')}</p>}
      {loadError ? <ErrorBox error={loadError} title={t('admin.load_failed')} /> : null}
      <div className="bo-form">
        <div ref={errorRef}><ErrorBox error={saveError} /></div>
        <div className="bo-admin-row">
          <div className="bo-field">
            <label htmlFor="role-name">{t('role.name')} <span className="bo-required">*</span></label>
            <InputText id="role-name" value={name} disabled={readOnly} maxLength={100} onChange={(e) => { setName(e.target.value); setDirty(true); }} />
          </div>
          <div className="bo-field" style={{ flex: '0 1 260px' }}>
            <label htmlFor="role-print">{t('role.print_times')}</label>
            <InputNumber inputId="role-print" value={printTimes} disabled={readOnly} min={0} max={99} useGrouping={false} onValueChange={(e) => { setPrintTimes(e.value ?? null); setDirty(true); }} />
          </div>
          <div className="bo-field">
            <label htmlFor="role-desc">{t('role.description')}</label>
            <InputText id="role-desc" value={description} disabled={readOnly} maxLength={1000} onChange={(e) => { setDescription(e.target.value); setDirty(true); }} />
          </div>
        </div>
        <div>
          <h2 className="bo-section-title" style={{ fontSize: 16, margin: '0 0 6px' }}>{t('role.matrix')}</h2>
          <p className="bo-muted" style={{ margin: '0 0 8px', fontSize: 13 }}>{t('role.legend')}</p>
          <div className="bo-matrix-wrap">
            <table className="bo-matrix" data-testid="role-matrix">
              <thead>
                <tr>
                  <th>{t('role.menu')}</th>
                  {FLAGS.map((f) => (
                    <th key={f}>
                      <button
                        type="button" className={`bo-col-tick${columnAll(detail, columnKeys, f) ? ' is-all' : ''}`} disabled={readOnly}
                        title={t('role.whole_column')} aria-label={`${t('role.whole_column')} ${flagLabel(f)}`}
                        onClick={() => change(toggleColumn(detail, columnKeys, f))}
                      >{flagLabel(f)}</button>
                    </th>
                  ))}
                  <th>{t('role.whole_row')}</th>
                </tr>
              </thead>
              <tbody>
                {row(ALL_KEY, t('role.all_menus'), true)}
                {groups.map((g) => [
                  <tr key={`g:${g.key}`} className="bo-matrix-group"><td colSpan={7}>{t(`menu.${g.key}`, { defaultValue: loc(g.label, i18n.language) })}</td></tr>,
                  ...g.items.map((item) => row(item.key, loc(item.label, i18n.language) || item.key)),
                ])}
                {extra.length > 0 && <tr className="bo-matrix-group"><td colSpan={7}>{t('role.other_keys')}</td></tr>}
                {extra.map((k) => row(k, k))}
              </tbody>
            </table>
          </div>
        </div>
        {!readOnly && (
          <div className="bo-form-actions">
            <Button label={t('common.save')} icon="pi pi-check" onClick={() => void save()} loading={saving} disabled={!dirty && !isCreate} />
          </div>
        )}
      </div>
    </section>
  );
}
