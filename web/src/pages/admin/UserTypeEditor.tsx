import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Dropdown } from 'primereact/dropdown';
import { api } from '../../core/http-client.ts';
import { fetchEntityMeta } from '../../core/entity-meta.ts';
import { useCan } from '../../core/permissions.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { loadAdminRecord, saveAdminRecord } from './admin-record.ts';
import { ErrorBox } from './admin-common.tsx';
import { KeyValueEditor, fromEntries, toEntries, type KeyValueEntry } from './KeyValueEditor.tsx';

function objectOf(v: unknown): Record<string, unknown> {
  let d = v;
  if (typeof v === 'string') { try { d = JSON.parse(v); } catch { return {}; } }
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : {};
}

const FLAGS = [
  ['is_show_all_menu', 'usertype.show_all_menu'],
  ['is_limit_inventory_to_access', 'usertype.limit_inventory'],
  ['is_limit_company_to_access', 'usertype.limit_company'],
] as const;

/** /user_type/{id}: the type's flags, and type_detail / display_detail as forms, never JSON text. */
export default function UserTypeEditor({ entity = '' }: { entity?: string }) {
  const { id } = useParams();
  const isCreate = !id || id === 'create';
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canEdit = useCan(entity, 'edit');
  const [roles, setRoles] = useState<{ id: number; name: string }[]>([]);
  const [name, setName] = useState('');
  const [roleId, setRoleId] = useState<number | null>(null);
  const [flags, setFlags] = useState<Record<string, boolean>>({ is_show_all_menu: false, is_limit_inventory_to_access: false, is_limit_company_to_access: false });
  const [typeDetail, setTypeDetail] = useState<KeyValueEntry[]>([]);
  const [displayDetail, setDisplayDetail] = useState<KeyValueEntry[]>([]);
  const [loaded, setLoaded] = useState(isCreate);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    // the roles a type belongs to: the entity its role_id links to
    void fetchEntityMeta(entity).then((m) => m.entity.fields.role_id?.entity ?? Promise.reject(new Error('no role_id link')))
      .then((roles) => api.get<{ data: { id: number; name: string }[] }>(`/api/${roles}`, { searchParams: { limit: 500, fields: 'id,name', sort: 'name' } }))
      .then((r) => setRoles(r.data), () => setRoles([]));
    if (isCreate) return;
    loadAdminRecord(entity, id!, {
      row: (d) => {
        setName(String(d.name ?? ''));
        setRoleId(typeof d.role_id === 'number' ? d.role_id : null);
        setFlags(Object.fromEntries(FLAGS.map(([f]) => [f, d[f] === true || d[f] === 1])));
        setTypeDetail(toEntries(objectOf(d.type_detail)));
        setDisplayDetail(toEntries(objectOf(d.display_detail)));
        setLoaded(true);
      },
      missing: () => setMissing(true), error: setError,
    });
  }, [entity, id, isCreate]);

  if (missing) return <NotFound />;
  if (!loaded) return error ? <section className="bo-page"><ErrorBox error={error} /></section> : <Spinner />;
  const readOnly = !canEdit;

  const save = async () => {
    setError(null);
    setSaving(true);
    const body = { name: name.trim(), role_id: roleId, ...flags, type_detail: fromEntries(typeDetail), display_detail: fromEntries(displayDetail) };
    await saveAdminRecord(entity, isCreate ? undefined : id, body, { t, navigate }, setError);
    setSaving(false);
  };

  return (
    <section className="bo-page">
      <PageTitle actions={<Link to={`/${entity}`} className="p-button p-button-text">{t('common.back')}</Link>}>
        {isCreate ? t('form.create_title', { entity: t(`route.${entity}`) }) : `${t(`route.${entity}`)}: ${name}`}
      </PageTitle>
      <div className="bo-form">
        <div className="bo-card">
          <div className="bo-grid cols-2">
            <div className="bo-field">
              <label htmlFor="ut-name">{t('usertype.name')} <span className="bo-required">*</span></label>
              <InputText id="ut-name" value={name} disabled={readOnly} maxLength={100} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="bo-field">
              <label htmlFor="ut-role">{t('usertype.role')} <span className="bo-required">*</span></label>
              <Dropdown inputId="ut-role" value={roleId} options={roles} optionLabel="name" optionValue="id" disabled={readOnly} filter onChange={(e) => setRoleId(e.value as number)} placeholder={t('common.select')} />
            </div>
          </div>
          <h2 style={{ fontSize: 15, margin: '16px 0 8px' }}>{t('usertype.flags')}</h2>
          <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
            {FLAGS.map(([f, label]) => (
              <label key={f} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                <input type="checkbox" checked={flags[f] ?? false} disabled={readOnly} onChange={(e) => setFlags({ ...flags, [f]: e.target.checked })} />
                {t(label)}
              </label>
            ))}
          </div>
        </div>
        <div className="bo-card">
          <h2>{t('usertype.type_detail')}</h2>
          <KeyValueEditor id="type_detail" entries={typeDetail} onChange={setTypeDetail} disabled={readOnly} />
        </div>
        <div className="bo-card">
          <h2>{t('usertype.display_detail')}</h2>
          <KeyValueEditor id="display_detail" entries={displayDetail} onChange={setDisplayDetail} disabled={readOnly} />
        </div>
        <ErrorBox error={error} />
        {!readOnly && <div className="bo-form-actions"><Button label={t('common.save')} icon="pi pi-check" onClick={() => void save()} loading={saving} /></div>}
      </div>
    </section>
  );
}
