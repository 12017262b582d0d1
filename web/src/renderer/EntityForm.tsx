import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { useBlocker, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { EntityMeta } from '../core/entity-meta.ts';
import { api, ApiError } from '../core/http-client.ts';
import { loc } from '../core/i18n.ts';
import { entityLabel as entityText, fieldLabel } from '../core/labels.ts';
import { toast } from '../core/toast-bus.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import NotFound from '../ui/NotFound.tsx';
import { compileConditions, defaultValues, formSections, recordToValues, type FormValues, type Resolve } from './form-model.ts';
import { entityResolver } from './entity-resolver.ts';
import { FieldWidget } from './fields/FieldWidget.tsx';
import { LinesGrid } from './fields/LinesGrid.tsx';

export interface EntityFormProps {
  meta: EntityMeta;
  /** Edit forms have a type: create or edit. */
  type: 'create' | 'edit';
  id?: number;
  singleton?: boolean;
}

function messageAt(errors: FieldErrors<FormValues>, name: string): string | undefined {
  return (errors[name] as { message?: string } | undefined)?.message;
}

/** The generic form: fields by type, live visibleIf/requiredIf, engine validation, server errors by field. */
export default function EntityForm({ meta, type, id, singleton }: EntityFormProps) {
  const { entity, related } = meta;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const resolve: Resolve = useCallback((n: string) => (n === entity.name ? entity : related[n]), [entity, related]);
  const conditions = useMemo(() => compileConditions(entity, resolve), [entity, resolve]);
  const sections = useMemo(() => formSections(entity), [entity]);
  const resolver = useMemo(() => entityResolver(entity, type, resolve, conditions.visible), [entity, type, resolve, conditions]);
  const [record, setRecord] = useState<FormValues | null>(type === 'create' ? {} : null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const leaving = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  const form = useForm<FormValues>({ defaultValues: defaultValues(entity), resolver, mode: 'onSubmit', reValidateMode: 'onChange' });
  const { control, handleSubmit, reset, setError, formState } = form;
  const values = useWatch({ control }) as FormValues;

  useEffect(() => {
    if (type !== 'edit' || id === undefined) return;
    let live = true;
    api.get<{ data: FormValues }>(`/api/${entity.name}/${id}`).then((r) => {
      if (!live) return;
      setRecord(r.data);
      reset(recordToValues(entity, r.data, resolve));
    }, (e: ApiError) => live && setLoadError(e));
    return () => { live = false; };
  }, [type, id, entity, reset, resolve]);

  // leaving with unsaved changes asks first
  const dirty = formState.isDirty && !formState.isSubmitSuccessful;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const h = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = ''; };
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [dirty]);

  const listPath = `/${entity.name}`;
  const entityLabel = entityText(t, entity);

  const onSubmit = async (body: FormValues) => {
    try {
      if (type === 'create') {
        const res = await api.post<{ data: FormValues }>(`/api/${entity.name}`, body);
        toast('success', t('common.saved'), `${entityLabel} ${String(res.data[entity.titleField] ?? '')}`);
        leaving.current = true;
        reset(recordToValues(entity, res.data, resolve));
        navigate(`/${entity.name}/${String(res.data.id)}`, { replace: true });
      } else {
        const res = await api.put<{ data: FormValues }>(`/api/${entity.name}/${id}`, body);
        setRecord(res.data);
        reset(recordToValues(entity, res.data, resolve));
        toast('success', t('common.saved'), `${entityLabel} ${String(res.data[entity.titleField] ?? '')}`);
      }
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, String(err));
      for (const f of e.fields) if (f.field) setError(f.field as never, { type: f.code, message: f.message });
      toast('error', t('common.error'), e.message);
    }
  };
  const onInvalid = () => toast('error', t('common.error'), t('form.invalid'));
  const submit = handleSubmit(onSubmit, onInvalid);

  // Ctrl+S saves from anywhere on the form
  useEffect(() => {
    const h = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') { e.preventDefault(); void submit(); }
    };
    window.addEventListener('keydown', h);
    return () => window.removeEventListener('keydown', h);
  }, [submit]);

  const doDelete = async () => {
    setDeleting(true);
    try {
      await api.delete(`/api/${entity.name}/${id}`);
      toast('success', t('common.deleted'), entityLabel);
      leaving.current = true;
      navigate(listPath, { replace: true });
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  if (loadError) return loadError.status === 404 ? <NotFound /> : <p role="alert" className="bo-error-text">{loadError.message}</p>;
  if (!record) return <Spinner />;

  const title = singleton
    ? entityLabel
    : type === 'create' ? t('form.create_title', { entity: entityLabel }) : `${entityLabel}: ${String(record[entity.titleField] ?? `#${id}`)}`;
  const readOnlyEntity = entity.kind === 'ledger';

  return (
    <section className="bo-page bo-form-page">
      <PageTitle actions={!singleton && <Button type="button" icon="pi pi-arrow-left" label={t('common.back')} text onClick={() => navigate(listPath)} />}>{title}</PageTitle>
      <form ref={formRef} className="bo-form" onSubmit={submit} noValidate aria-label={title} data-form-type={type}>
        {sections.map((s) => {
          const shown = s.fields.filter((n) => conditions.visible(n, values) && !entity.fields[n]!.hidden);
          if (shown.length === 0) return null;
          return (
            <fieldset key={s.key} className="bo-section">
              {s.label && <legend>{loc(s.label, lang)}</legend>}
              <div className={`bo-grid cols-${s.columns}`}>
                {shown.map((name) => {
                  const field = entity.fields[name]!;
                  const fid = `field-${name}`;
                  const err = messageAt(formState.errors, name);
                  const required = conditions.required(name, values);
                  const help = field.help ? loc(field.help, lang) : undefined;
                  const describedBy = [err ? `${fid}-error` : '', help ? `${fid}-help` : ''].filter(Boolean).join(' ') || undefined;
                  if (field.type === 'lines') {
                    const child = related[field.entity!];
                    if (!child) return null;
                    return (
                      <div key={name} className="bo-field bo-field-wide">
                        <LinesGrid name={name} label={fieldLabel(t, entity.name, name, field, lang)} child={child} control={control} related={related} errors={formState.errors} disabled={readOnlyEntity} />
                      </div>
                    );
                  }
                  return (
                    <div key={name} className={`bo-field ${field.type === 'text' || field.type === 'json' ? 'bo-field-wide' : ''} ${field.type === 'boolean' ? 'bo-field-check' : ''}`} data-field={name}>
                      <label htmlFor={fid}>
                        {fieldLabel(t, entity.name, name, field, lang)}
                        {required && <span className="bo-required" aria-hidden="true"> *</span>}
                      </label>
                      <FieldWidget name={name} field={field} control={control} related={related} lang={lang} id={fid}
                        invalid={!!err} describedBy={describedBy} disabled={readOnlyEntity} />
                      {help && !err && <small id={`${fid}-help`} className="bo-help">{help}</small>}
                      {err && <small id={`${fid}-error`} className="p-error bo-field-error" role="alert">{err}</small>}
                    </div>
                  );
                })}
              </div>
            </fieldset>
          );
        })}
        <div className="bo-form-actions">
          {type === 'edit' && !singleton && !readOnlyEntity && (
            <Button type="button" icon="pi pi-trash" label={t('common.delete')} severity="danger" outlined onClick={() => setConfirmDelete(true)} />
          )}
          <span className="bo-toolbar-spacer" />
          <span className="bo-muted bo-shortcuts">{t('form.shortcuts')}</span>
          {!singleton && <Button type="button" label={t('common.cancel')} severity="secondary" outlined onClick={() => navigate(listPath)} />}
          {!readOnlyEntity && <Button type="submit" icon="pi pi-check" label={t('common.save')} loading={formState.isSubmitting} />}
        </div>
      </form>
      <ConfirmDialog
        visible={confirmDelete}
        header={t('common.confirm_delete_header')}
        message={`${t('common.confirm_delete')} ${String(record[entity.titleField] ?? '')}`}
        busy={deleting}
        onConfirm={() => void doDelete()}
        onCancel={() => setConfirmDelete(false)}
      />
      <ConfirmDialog
        visible={blocker.state === 'blocked'}
        header={t('common.unsaved_header')}
        message={t('common.leave_unsaved')}
        confirmLabel={t('common.leave')}
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </section>
  );
}
