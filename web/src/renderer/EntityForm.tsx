import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { LeaveGuard } from './form/LeaveGuard.tsx';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import type { EntityMeta } from '../core/entity-meta.ts';
import { api, ApiError } from '../core/http-client.ts';
import { entityLabel as entityText } from '../core/labels.ts';
import { readRecord } from '../core/record-api.ts';
import { sessionAtom } from '../core/session-atoms.ts';
import { settingsAtom } from '../core/app-data.ts';
import { clearToasts, toast } from '../core/toast-bus.ts';
import type { UploadedFile } from '../core/file-api.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { workflowLock } from './WorkflowActions.tsx';
import { useDocumentTotals } from './use-document-totals.ts';
import { useCan } from '../core/permissions.ts';
import { useFormFills } from './form-fills.ts';
import { Spinner } from '../ui/Spinner.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import NotFound from '../ui/NotFound.tsx';
import { compileConditions, defaultValues, formSections, recordToValues, removedLineIds, type FormValues, type Resolve } from './form-model.ts';
import { entityResolver, warmValidator } from './entity-resolver.ts';
import { errorToast } from '../core/error-detail.ts';
import { fileMetadataValues } from './file-metadata.ts';
import { RelatedList } from './RelatedList.tsx';
import { FormFields } from './form/FormFields.tsx';
import { FormActions } from './form/FormActions.tsx';
import { formPanels } from './form/form-panels.ts';
import { enterMoves, focusFirstEmpty } from './form/form-keys.ts';
import { useNewRecordDefaults } from './form/use-new-record-defaults.ts';

export { fillFromMap } from './form/use-fill-from.ts';

export interface EntityFormProps {
  meta: EntityMeta;
  /** Edit forms have a type: create or edit. */
  type: 'create' | 'edit';
  id?: number;
  singleton?: boolean;
  /** 'modal': an edit box over the current screen (schema `form.modal`, or a related list's add/open). */
  presentation?: 'page' | 'modal';
  /** Create: values laid over the defaults (a related list's back-link). */
  prefill?: FormValues;
  /** Shown but not editable (the back-link of a related list). */
  lockedFields?: string[];
  /** After a create or an update was stored. */
  onSaved?: (row: FormValues, type: 'create' | 'edit') => void;
  /** Modal: the box was closed (after the unsaved-changes question when needed). */
  onClose?: () => void;
  /**
   * Modal that stands for a route (`/working_record/5`): leaving the route with the
   * browser's Back button asks first, like a page form. Nested modals leave that to their page.
   */
  guardRoute?: boolean;
  onDeleted?: () => void;
}

/** The forms on screen, innermost last: only the top one answers Esc and Ctrl+S. */
const formStack: symbol[] = [];

/** The field that had the focus when a create was saved: the form reopened as an edit puts it back there. */
let pendingFocus: { entity: string; fieldId: string | null } | null = null;

/**
 * A create just saved in a page, reopened at the record's address: the edit form starts from the saved record and
 * what was typed since (the old form stays on screen until the new one renders), instead of reading the record
 * again and writing its answer over what the person typed meanwhile.
 */
let reopened: { entity: string; id: number; record: FormValues; values: () => FormValues } | null = null;

/** After a save re-renders the form, the focus stays in it: on the same field when it is still there. */
function keepFocus(form: HTMLFormElement | null, fieldId: string | null): void {
  requestAnimationFrame(() => {
    if (!form || form.contains(document.activeElement)) return;
    const el = fieldId ? document.getElementById(fieldId) : null;
    if (el && form.contains(el)) el.focus(); else focusFirstEmpty(form);
  });
}

/** The generic form: fields by type, live visibleIf/requiredIf, engine validation, server errors by field, related lists. */
export default function EntityForm(props: EntityFormProps) {
  const { meta, singleton, prefill, lockedFields, onSaved, onClose, onDeleted } = props;
  const modal = props.presentation === 'modal';
  const { entity, related } = meta;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const settingsState = useAtomValue(settingsAtom);
  // site settings switch fields on (enabledBy) and give defaults (defaultSetting); null until loaded
  const site = settingsState.status === 'loaded' ? (settingsState.data as Record<string, unknown>) : null;
  const formId = useId();
  // a modal create turns into an edit of the new record (so its related lists can be filled)
  const [current, setCurrent] = useState<{ type: 'create' | 'edit'; id?: number }>({ type: props.type, id: props.id });
  const { type, id } = current;
  const resolve: Resolve = useCallback((n: string) => (n === entity.name ? entity : related[n]), [entity, related]);
  const conditions = useMemo(() => compileConditions(entity, resolve, site), [entity, resolve, site]);
  const sections = useMemo(() => formSections(entity), [entity]);
  const resolver = useMemo(() => entityResolver(entity, type, resolve, conditions.visible), [entity, type, resolve, conditions]);
  const resolverRef = useRef(resolver);
  resolverRef.current = resolver;
  const stableResolver = useCallback<Resolver<FormValues>>((v, c, o) => resolverRef.current(v, c, o), []);
  const [handed] = useState(() => (props.type === 'edit' && reopened?.entity === entity.name && reopened.id === props.id
    ? { record: reopened.record, values: reopened.values } : null));
  useEffect(() => { if (handed) reopened = null; }, [handed]);
  const [record, setRecord] = useState<FormValues | null>(type === 'create' ? {} : handed?.record ?? null);
  // the status moves only through actions, and a locked (posted) state keeps every field but its editable ones
  const stateLock = workflowLock(entity, record);
  const locked = useMemo(() => new Set([...(lockedFields ?? []), ...stateLock.fields]), [lockedFields, stateLock.key]);
  // the validator compiles once the record is on screen (compiling it while waiting for the record would delay the record too)
  const hasRecord = record !== null;
  useEffect(() => (hasRecord ? warmValidator(entity, type, resolve) : undefined), [hasRecord, entity, type, resolve]);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [visible, setVisible] = useState(true);
  const leaving = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  // a role without edit sees the record, not the buttons that would change it (the server refuses the same)
  const mayEdit = useCan(entity.menuKey ?? entity.name, 'edit');

  const initial = useMemo(() => (handed ? recordToValues(entity, handed.record, resolve)
    : { ...defaultValues(entity, { userId: session.id, settings: site }), ...(prefill ?? {}) }),
  // eslint-disable-next-line react-hooks/exhaustive-deps
  [entity, session.id, prefill, site]);
  const form = useForm<FormValues>({ defaultValues: initial, resolver: stableResolver, mode: 'onSubmit', reValidateMode: 'onChange' });
  const { control, handleSubmit, reset, setError, setValue, getValues, formState } = form;
  // what was typed after the create was saved is kept, as an unsaved change: the old form's values are read
  // as this one replaces it on screen (a navigation renders the new form first and swaps it in later)
  useLayoutEffect(() => {
    if (!handed) return;
    for (const [k, v] of Object.entries(handed.values())) {
      if (JSON.stringify(v) !== JSON.stringify(initial[k])) setValue(k, v, { shouldDirty: true });
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handed]);
  useDocumentTotals(entity, form as never);
  const values = useWatch({ control }) as FormValues;

  // the schema can change under an open form (page settings, live): the record is not read again then,
  // so what the person has typed stays; only a different record reloads
  const schemaNow = useRef({ entity, resolve });
  schemaNow.current = { entity, resolve };
  useEffect(() => {
    if (props.type !== 'edit' || props.id === undefined) return;
    let live = true;
    void readRecord<FormValues>(entity.name, props.id).then((r) => {
      if (!live) return;
      if (r.success) {
        setRecord(r.data);
        const read = recordToValues(schemaNow.current.entity, r.data, schemaNow.current.resolve);
        // a form reopened from its create shows already: the same answer changes nothing (a reset would give the
        // lines new keys, re-mounting the focused field), and what the person has typed since stays
        if (!handed) reset(read);
        else if (JSON.stringify(read) !== JSON.stringify(initial)) reset(read, { keepDirtyValues: true }); // initial: the saved record's values
      } else {
        if (r.error.status !== 404) toast('error', t('common.error'), r.error.message);
        setLoadError(r.error);
      }
    });
    return () => { live = false; };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.type, props.id, entity.name, reset, t]);

  /** Reads the record again after the server changed it outside the form (a scan counted on a line). */
  const reload = useCallback(async () => {
    if (id === undefined) return;
    const r = await readRecord<FormValues>(entity.name, id);
    if (r.success) { setRecord(r.data); reset(recordToValues(entity, r.data, resolve)); }
  }, [id, entity, reset, resolve]);

  // fills, live (fillFrom, price lists, due dates): the server's rules, asked as fields change; a value typed by hand is kept
  // a new record starts with the issuing company the server would give it (defaultFrom), shown
  const defaultsIn = useNewRecordDefaults(entity, props.type === 'create', form as never);
  // a link given from outside (a related list's back-link) fills the fields that follow it once the form is shown
  useFormFills(entity, resolve, form as never, formState.isSubmitted, type === 'create', defaultsIn ? Object.keys(prefill ?? {}) : []);

  const dirty = formState.isDirty && !formState.isSubmitSuccessful;
  useEffect(() => {
    if (!dirty) return;
    const h = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = ''; };
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [dirty]);

  const listPath = `/${entity.name}`;
  const entityLabel = entityText(t, entity);
  const staysOpenAfterCreate = modal && (entity.related?.length ?? 0) > 0;

  const close = useCallback(() => {
    // closing on purpose is not "leaving with unsaved changes": the route guard must not ask again
    leaving.current = true;
    setConfirmClose(false);
    setVisible(false);
    onClose?.();
  }, [onClose]);
  const requestClose = useCallback(() => {
    if (formState.isDirty && !formState.isSubmitSuccessful) setConfirmClose(true);
    else close();
  }, [formState.isDirty, formState.isSubmitSuccessful, close]);

  const onSubmit = async (body: FormValues) => {
    const focused = document.activeElement instanceof HTMLElement && formRef.current?.contains(document.activeElement) ? document.activeElement.id || null : null;
    try {
      if (type === 'create') {
        const res = await api.post<{ data: FormValues }>(`/api/${entity.name}`, body);
        clearToasts('error');
        toast('success', t('common.saved'), `${entityLabel} ${String(res.data[entity.titleField] ?? '')}`);
        leaving.current = true;
        setRecord(res.data);
        reset(recordToValues(entity, res.data, resolve));
        if (singleton) {
          onSaved?.(res.data, 'create');
        } else if (!modal) {
          onSaved?.(res.data, 'create');
          pendingFocus = { entity: entity.name, fieldId: focused };
          reopened = { entity: entity.name, id: Number(res.data.id), record: res.data, values: () => getValues() };
          navigate(`/${entity.name}/${String(res.data.id)}`, { replace: true });
        } else {
          setCurrent({ type: 'edit', id: Number(res.data.id) });
          onSaved?.(res.data, 'create');
          if (!staysOpenAfterCreate) close();
        }
      } else {
        const res = await api.put<{ data: FormValues }>(`/api/${entity.name}/${id}`, { ...body, ...removedLineIds(entity, record, body) });
        setRecord(res.data);
        reset(recordToValues(entity, res.data, resolve));
        clearToasts('error');
        toast('success', t('common.saved'), `${entityLabel} ${String(res.data[entity.titleField] ?? '')}`);
        onSaved?.(res.data, 'edit');
        if (modal) close(); else keepFocus(formRef.current, focused);
      }
    } catch (err) {
      markFields(err);
    }
  };
  /** The fields the server named are marked with its messages, and the toast names them and says what to do. */
  const markFields = (err: unknown) => {
    for (const f of err instanceof ApiError ? err.fields : []) if (f.field) setError(f.field.replace(/^values\./, '') as never, { type: f.code, message: f.message });
    const { summary, detail } = errorToast(err, t, lang === 'en' ? 'en' : 'th', entity, related);
    // the latest problem replaces the earlier ones instead of piling up
    clearToasts('error');
    toast('error', summary, detail);
  };
  const onInvalid = () => { clearToasts('error'); toast('error', t('common.error'), t('form.invalid')); };
  const submit = handleSubmit(onSubmit, onInvalid);
  const submitRef = useRef(submit);
  submitRef.current = submit;
  const keys = useRef({ requestClose, confirmOpen: false, canSave: true });
  keys.current = { requestClose, confirmOpen: confirmClose || confirmDelete, canSave: keys.current.canSave };

  // Ctrl+S saves; in a modal Esc closes (asking first when there are unsaved changes). Only the top form listens.
  useEffect(() => {
    const me = Symbol('form');
    formStack.push(me);
    const h = (e: KeyboardEvent) => {
      if (formStack[formStack.length - 1] !== me) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') { e.preventDefault(); if (keys.current.canSave) void submitRef.current(); return; }
      if (modal && e.key === 'Escape' && !keys.current.confirmOpen && !document.querySelector('.p-dropdown-panel, .p-multiselect-panel')) {
        e.preventDefault();
        keys.current.requestClose();
      }
    };
    window.addEventListener('keydown', h);
    return () => {
      window.removeEventListener('keydown', h);
      const i = formStack.indexOf(me);
      if (i >= 0) formStack.splice(i, 1);
    };
  }, [modal]);

  const doDelete = async () => {
    setDeleting(true);
    try {
      await api.delete(`/api/${entity.name}/${id}`);
      toast('success', t('common.deleted'), entityLabel);
      leaving.current = true;
      onDeleted?.();
      if (modal) close();
      else navigate(listPath, { replace: true });
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  // a file upload fills the form's fields named like the upload answer (file_name, mime_type, size) when they are empty
  const onUploaded = useCallback((file: UploadedFile) => {
    for (const [name, v] of Object.entries(fileMetadataValues(entity, file))) {
      const now = getValues(name);
      if (now === '' || now === null || now === undefined) setValue(name, v, { shouldDirty: true });
    }
  }, [entity, getValues, setValue]);

  // a draft numbered on posting has no number yet: it is called a draft, never by its internal id
  const docTitle = String(record?.[entity.titleField] ?? '') || t('form.draft');
  const title = singleton ? entityLabel : type === 'create' ? t('form.create_title', { entity: entityLabel }) : `${entityLabel}: ${docTitle}`;
  const readOnlyEntity = entity.kind === 'ledger';
  const saveable = !stateLock.locked || Object.keys(entity.fields).some((f) => !locked.has(f));
  // a posted document shows บันทึก only once a field it still allows (a remark) was changed
  const canSave = !readOnlyEntity && mayEdit && saveable && (!stateLock.locked || dirty);
  keys.current.canSave = canSave;

  // the form opens on its first empty field (or where the person was before a create reopened it as an edit)
  // (not on a posted document: its one editable remark would pull the page away from what it shows)
  const shown = !!record && defaultsIn && !loadError && !stateLock.locked && canSave;
  useEffect(() => {
    if (!shown || !formRef.current) return;
    const again = pendingFocus?.entity === entity.name ? pendingFocus.fieldId : null;
    pendingFocus = null;
    const timer = setTimeout(() => { if (formRef.current) focusFirstEmpty(formRef.current, again); }, 0);
    return () => clearTimeout(timer);
  }, [shown, entity.name, id]);

  let body: React.ReactNode;
  if (loadError) {
    body = loadError.status === 404 ? <NotFound /> : <p role="alert" className="bo-error-text">{loadError.message}</p>;
  } else if (!record || !defaultsIn) {
    body = <Spinner />;
  } else {
    const disabled = (name: string) => readOnlyEntity || !mayEdit || locked.has(name);
    const relatedLists = !singleton && (entity.related?.length ?? 0) > 0 && (
      type === 'edit' && id !== undefined
        ? entity.related!.map((r) => <RelatedList key={r.key} parent={entity} parentId={id} parentRecord={record} def={r} />)
        : <p className="bo-muted bo-related-hint">{t('related.save_first')}</p>
    );
    body = (
      <>
        <form id={formId} ref={formRef} className="bo-form" noValidate aria-label={title} data-form-type={type} data-entity={entity.name}
          onSubmit={(e) => { e.stopPropagation(); e.preventDefault(); if (canSave) void submit(e); }}
          // Enter goes to the next field (and adds a line after a line's last field); only Ctrl+S saves
          onKeyDown={(e) => { if (formRef.current) enterMoves(e, formRef.current); }}>
          <FormFields entity={entity} related={related} sections={sections} values={values} control={control} errors={formState.errors}
            type={type} modal={modal} visible={conditions.visible} required={conditions.required} warning={conditions.warning} disabled={disabled} onUploaded={onUploaded} />
        </form>
        {relatedLists && <div className="bo-related-group">{relatedLists}</div>}
        {type === 'edit' && id !== undefined && formPanels(entity, 'body').map(({ key, Component }) => (
          <Component key={key} entity={entity} id={id} record={record} reload={() => void reload()} />
        ))}
      </>
    );
  }

  const actions = record && !loadError && (
    <FormActions entity={entity} record={record} type={type} id={id} modal={modal} singleton={singleton} formId={formId}
      dirty={formState.isDirty && !formState.isSubmitSuccessful} submitting={formState.isSubmitting}
      mayEdit={mayEdit} locked={stateLock.locked} saveable={canSave} readOnly={readOnlyEntity}
      onDelete={() => setConfirmDelete(true)} onLeave={() => (modal ? requestClose() : navigate(listPath))}
      onChanged={(r) => { setRecord(r); reset(recordToValues(entity, r, resolve)); }} onFailed={markFields} reload={() => void reload()} />
  );

  const dialogs = (
    <>
      <ConfirmDialog
        visible={confirmDelete}
        header={t('common.confirm_delete_header')}
        message={`${t('common.confirm_delete')} ${String(record?.[entity.titleField] ?? '')}`}
        busy={deleting}
        onConfirm={() => void doDelete()}
        onCancel={() => setConfirmDelete(false)}
      />
      {modal && (
        <ConfirmDialog
          visible={confirmClose}
          header={t('common.unsaved_header')}
          message={t('common.close_unsaved')}
          confirmLabel={t('common.discard')}
          onConfirm={close}
          onCancel={() => setConfirmClose(false)}
        />
      )}
    </>
  );

  if (modal) {
    return (
      <>
        <Dialog
          visible={visible}
          header={title}
          onHide={requestClose}
          closeOnEscape={false}
          dismissableMask={false}
          draggable={false}
          resizable={false}
          modal
          blockScroll
          className="bo-form-dialog"
          style={{ width: 'min(920px, 96vw)' }}
          footer={actions || undefined}
          data-testid={`form-modal-${entity.name}`}
        >
          {body}
        </Dialog>
        {dialogs}
        {props.guardRoute && <LeaveGuard dirty={dirty} leaving={leaving} />}
      </>
    );
  }

  if (loadError || !record) return <>{body}</>;
  return (
    <section className="bo-page bo-form-page">
      <PageTitle actions={!singleton && <Button type="button" icon="pi pi-arrow-left" label={t('form.back_to_list')} text onClick={() => navigate(listPath)} />}>{title}</PageTitle>
      {body}
      {actions}
      {dialogs}
      <LeaveGuard dirty={dirty} leaving={leaving} />
    </section>
  );
}
