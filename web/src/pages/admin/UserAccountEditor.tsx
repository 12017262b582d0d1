import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Password } from 'primereact/password';
import { Dropdown } from 'primereact/dropdown';
import { MultiSelect } from 'primereact/multiselect';
import { Dialog } from 'primereact/dialog';
import { api } from '../../core/http-client.ts';
import { fetchEntityMeta, fetchEntitySummaries } from '../../core/entity-meta.ts';
import { toast } from '../../core/toast-bus.ts';
import { useCan } from '../../core/permissions.ts';
import { sessionAtom } from '../../core/session-atoms.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { loadAdminRecord, saveAdminRecord } from './admin-record.ts';
import { ErrorBox } from './admin-common.tsx';

type Option = { id: number; label: string };
type Account = {
  username: string; first_name: string; last_name: string; email: string; role_id: number | null; user_type_id: number | null;
  customer_id: number | null; inventory_allow: number[]; branch_company: number[]; is_active: boolean;
};
const EMPTY: Account = { username: '', first_name: '', last_name: '', email: '', role_id: null, user_type_id: null, customer_id: null, inventory_allow: [], branch_company: [], is_active: true };

export function idList(v: unknown): number[] {
  let d = v;
  if (typeof v === 'string') { try { d = JSON.parse(v); } catch { return []; } }
  return Array.isArray(d) ? d.map(Number).filter((n) => Number.isInteger(n)) : [];
}

async function options(entity: string, fields: string, label: (r: Record<string, unknown>) => string): Promise<Option[]> {
  const r = await api.get<{ data: Record<string, unknown>[] }>(`/api/${entity}`, { searchParams: { limit: 500, fields } });
  return r.data.map((row) => ({ id: Number(row.id), label: label(row) }));
}

/** /user_account/{id}: the account, its allowed inventories and companies as multi-selects, password reset, deactivation. */
export default function UserAccountEditor({ entity = '' }: { entity?: string }) {
  const { id } = useParams();
  const isCreate = !id || id === 'create';
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const canEdit = useCan(entity, 'edit');
  const [original, setOriginal] = useState<Account>(EMPTY);
  const [form, setForm] = useState<Account>(EMPTY);
  const [roles, setRoles] = useState<Option[]>([]);
  const [types, setTypes] = useState<(Option & { role_id: number })[]>([]);
  const [inventories, setInventories] = useState<Option[]>([]);
  const [companies, setCompanies] = useState<Option[]>([]);
  const [customers, setCustomers] = useState<Option[]>([]);
  const [loaded, setLoaded] = useState(isCreate);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [initialPassword, setInitialPassword] = useState('');
  const [pwOpen, setPwOpen] = useState(false);
  const [pw, setPw] = useState({ a: '', b: '' });
  const [pwError, setPwError] = useState<unknown>(null);
  const [statusConfirm, setStatusConfirm] = useState(false);
  const own = !isCreate && Number(id) === session.id;

  useEffect(() => {
    // the choices come from the entities the account's schema links to (roles, user types, the portal's customers)
    void fetchEntityMeta(entity).then((m) => {
      const target = (field: string) => m.entity.fields[field]?.entity;
      const roles = target('role_id');
      const types = target('user_type_id');
      const customers = target('customer_id');
      if (roles) void options(roles, 'id,name', (r) => String(r.name)).then(setRoles, () => undefined);
      if (types) {
        void api.get<{ data: { id: number; name: string; role_id: number }[] }>(`/api/${types}`, { searchParams: { limit: 500, fields: 'id,name,role_id' } })
          .then((r) => setTypes(r.data.map((x) => ({ id: x.id, label: x.name, role_id: x.role_id }))), () => undefined);
      }
      if (customers) void options(customers, 'id,code,name_th', (r) => `${r.code ?? ''} ${r.name_th ?? ''}`.trim()).then(setCustomers, () => undefined);
    }, () => undefined);
    // the ids of inventory_allow and branch_company are rows of the entities that scope them (access.inventoryField / companyField "id")
    void fetchEntitySummaries().then((list) => {
      const inventories = list.find((e) => e.scope === 'inventories')?.name;
      const companies = list.find((e) => e.scope === 'companies')?.name;
      if (inventories) void options(inventories, 'id,code,name', (r) => `${r.code ?? ''} ${r.name ?? ''}`.trim()).then(setInventories, () => undefined);
      if (companies) void options(companies, 'id,code,name_th', (r) => `${r.code ?? ''} ${r.name_th ?? ''}`.trim()).then(setCompanies, () => undefined);
    }, () => undefined);
    if (isCreate) return;
    loadAdminRecord(entity, id!, {
      row: (d) => {
        const a: Account = {
          username: String(d.username ?? ''), first_name: String(d.first_name ?? ''), last_name: String(d.last_name ?? ''), email: String(d.email ?? ''),
          role_id: d.role_id === null || d.role_id === undefined ? null : Number(d.role_id), user_type_id: d.user_type_id ? Number(d.user_type_id) : null,
          customer_id: d.customer_id ? Number(d.customer_id) : null, inventory_allow: idList(d.inventory_allow), branch_company: idList(d.branch_company),
          is_active: d.is_active === true || d.is_active === 1,
        };
        setOriginal(a);
        setForm(a);
        setLoaded(true);
      },
      missing: () => setMissing(true), error: setError,
    });
  }, [entity, id, isCreate]);

  if (missing) return <NotFound />;
  if (!loaded) return error ? <section className="bo-page"><ErrorBox error={error} /></section> : <Spinner />;
  const readOnly = !canEdit && !own;
  const set = <K extends keyof Account>(k: K, v: Account[K]) => setForm((f) => ({ ...f, [k]: v }));

  const changes = (): Partial<Account> => {
    const out: Partial<Account> = {};
    for (const k of Object.keys(form) as (keyof Account)[]) {
      if (JSON.stringify(form[k]) !== JSON.stringify(original[k])) (out as Record<string, unknown>)[k] = form[k];
    }
    if ('email' in out && out.email === '') (out as Record<string, unknown>).email = null;
    return out;
  };

  const save = async () => {
    setError(null);
    setSaving(true);
    const body = isCreate ? { ...form, email: form.email || null } : changes();
    const afterCreate = async (newId: number) => { if (initialPassword) await api.put(`/api/${entity}/${newId}/password`, { password: initialPassword }); };
    if (await saveAdminRecord(entity, isCreate ? undefined : id, isCreate || Object.keys(body).length ? body : null, { t, navigate, afterCreate }, setError) && !isCreate) setOriginal(form);
    setSaving(false);
  };

  const setActive = async (active: boolean) => {
    setStatusConfirm(false);
    setError(null);
    try {
      await api.patch(`/api/${entity}/${id}`, { is_active: active });
      setOriginal((o) => ({ ...o, is_active: active }));
      setForm((f) => ({ ...f, is_active: active }));
      toast('success', t('common.saved'));
    } catch (e) {
      setError(e);
    }
  };

  const resetPassword = async () => {
    setPwError(null);
    if (pw.a !== pw.b) { setPwError(new Error(t('account.password_mismatch'))); return; }
    try {
      await api.put(`/api/${entity}/${id}/password`, { password: pw.a });
      setPwOpen(false);
      setPw({ a: '', b: '' });
      toast('success', t('account.password_set'));
    } catch (e) {
      setPwError(e);
    }
  };

  const typeOptions = types.filter((x) => form.role_id === null || x.role_id === form.role_id);
  return (
    <section className="bo-page">
      <PageTitle actions={
        <>
          {!isCreate && canEdit && !own && <Button label={t('account.reset_password')} icon="pi pi-key" outlined onClick={() => setPwOpen(true)} />}
          {!isCreate && canEdit && !own && (form.is_active
            ? <Button label={t('account.deactivate')} icon="pi pi-ban" severity="danger" outlined onClick={() => setStatusConfirm(true)} />
            : <Button label={t('account.reactivate')} icon="pi pi-check-circle" severity="success" outlined onClick={() => setStatusConfirm(true)} />)}
          <Link to={`/${entity}`} className="p-button p-button-text">{t('common.back')}</Link>
        </>
      }>
        {isCreate ? t('form.create_title', { entity: t(`route.${entity}`) }) : `${t(`route.${entity}`)}: ${original.username}`}
      </PageTitle>
      {own && <p className="bo-admin-note">{t('account.self_note')}</p>}
      <ErrorBox error={error} />
      <div className="bo-form">
        <div className="bo-card">
          {!isCreate && (
            <p style={{ margin: '0 0 12px' }}>
              {t('account.status')}: <span className={form.is_active ? 'bo-status-on' : 'bo-status-off'} data-testid="account-status">{form.is_active ? t('account.active') : t('account.inactive')}</span>
            </p>
          )}
          <div className="bo-grid cols-2">
            <div className="bo-field">
              <label htmlFor="ua-username">{t('account.username')} <span className="bo-required">*</span></label>
              <InputText id="ua-username" value={form.username} disabled={readOnly || own} maxLength={64} onChange={(e) => set('username', e.target.value)} />
            </div>
            <div className="bo-field">
              <label htmlFor="ua-email">{t('account.email')}</label>
              <InputText id="ua-email" type="email" value={form.email} disabled={readOnly} maxLength={320} onChange={(e) => set('email', e.target.value)} />
            </div>
            <div className="bo-field">
              <label htmlFor="ua-first">{t('account.first_name')}</label>
              <InputText id="ua-first" value={form.first_name} disabled={readOnly} maxLength={100} onChange={(e) => set('first_name', e.target.value)} />
            </div>
            <div className="bo-field">
              <label htmlFor="ua-last">{t('account.last_name')}</label>
              <InputText id="ua-last" value={form.last_name} disabled={readOnly} maxLength={100} onChange={(e) => set('last_name', e.target.value)} />
            </div>
            <div className="bo-field">
              <label htmlFor="ua-role">{t('account.role')} <span className="bo-required">*</span></label>
              <Dropdown inputId="ua-role" value={form.role_id} options={roles} optionLabel="label" optionValue="id" filter disabled={readOnly || own} placeholder={t('common.select')}
                onChange={(e) => { set('role_id', e.value as number); if (form.user_type_id && !types.some((x) => x.id === form.user_type_id && x.role_id === e.value)) set('user_type_id', null); }} />
            </div>
            <div className="bo-field">
              <label htmlFor="ua-type">{t('account.user_type')}</label>
              <Dropdown inputId="ua-type" value={form.user_type_id} options={typeOptions} optionLabel="label" optionValue="id" showClear disabled={readOnly || own} placeholder={t('account.user_type_default')} onChange={(e) => set('user_type_id', (e.value as number) ?? null)} />
            </div>
            {form.role_id === -1 && (
              <div className="bo-field">
                <label htmlFor="ua-customer">{t(`field.${entity}.customer_id`)}</label>
                <Dropdown inputId="ua-customer" value={form.customer_id} options={customers} optionLabel="label" optionValue="id" filter showClear disabled={readOnly || own} onChange={(e) => set('customer_id', (e.value as number) ?? null)} />
              </div>
            )}
            <div className="bo-field bo-field-wide" style={{ gridColumn: '1 / -1' }}>
              <label htmlFor="ua-inv">{t('account.inventory_allow')}</label>
              <MultiSelect inputId="ua-inv" value={form.inventory_allow} options={inventories} optionLabel="label" optionValue="id" filter display="chip" disabled={readOnly || own} placeholder={t('common.select')} onChange={(e) => set('inventory_allow', e.value as number[])} />
            </div>
            <div className="bo-field bo-field-wide" style={{ gridColumn: '1 / -1' }}>
              <label htmlFor="ua-co">{t('account.branch_company')}</label>
              <MultiSelect inputId="ua-co" value={form.branch_company} options={companies} optionLabel="label" optionValue="id" filter display="chip" disabled={readOnly || own} placeholder={t('common.select')} onChange={(e) => set('branch_company', e.value as number[])} />
            </div>
            {isCreate && (
              <div className="bo-field">
                <label htmlFor="ua-pw">{t('account.initial_password')}</label>
                <Password inputId="ua-pw" value={initialPassword} feedback={false} toggleMask onChange={(e) => setInitialPassword(e.target.value)} />
                <small className="bo-help">{t('account.password_rule')}</small>
              </div>
            )}
          </div>
        </div>
        {!readOnly && <div className="bo-form-actions"><Button label={t('common.save')} icon="pi pi-check" onClick={() => void save()} loading={saving} /></div>}
      </div>
      <Dialog visible={pwOpen} header={t('account.reset_password')} onHide={() => setPwOpen(false)} style={{ width: 420, maxWidth: '95vw' }}
        footer={<div className="bo-dialog-footer"><Button label={t('common.cancel')} outlined severity="secondary" onClick={() => setPwOpen(false)} /><Button label={t('common.save')} onClick={() => void resetPassword()} /></div>}>
        <div className="bo-form">
          <div className="bo-field"><label htmlFor="rp-a">{t('account.new_password')}</label><Password inputId="rp-a" value={pw.a} feedback={false} toggleMask onChange={(e) => setPw({ ...pw, a: e.target.value })} /></div>
          <div className="bo-field"><label htmlFor="rp-b">{t('account.confirm_password')}</label><Password inputId="rp-b" value={pw.b} feedback={false} toggleMask onChange={(e) => setPw({ ...pw, b: e.target.value })} /></div>
          <small className="bo-help">{t('account.password_rule')}</small>
          <ErrorBox error={pwError} />
        </div>
      </Dialog>
      <ConfirmDialog
        visible={statusConfirm}
        header={form.is_active ? t('account.deactivate') : t('account.reactivate')}
        message={form.is_active ? t('account.deactivate_confirm') : t('account.reactivate_confirm')}
        confirmLabel={form.is_active ? t('account.deactivate') : t('account.reactivate')}
        onConfirm={() => void setActive(!form.is_active)}
        onCancel={() => setStatusConfirm(false)}
      />
    </section>
  );
}
