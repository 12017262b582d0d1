import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import type { EntitySchema, WorkflowTransition } from '../../../engine/schema/schema-types.ts';
import { api } from '../core/http-client.ts';
import { ApiError } from '../core/api-error.ts';
import { toast } from '../core/toast-bus.ts';
import { issuePreview } from './issue-preview.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { approvalFor, type ActionApproval } from './action-approvals.ts';
import { actionBody, askedFields } from './action-fields.ts';

type Row = Record<string, unknown>;

export interface WorkflowActionsProps {
  entity: EntitySchema;
  record: Row;
  /** The record as the action left it. */
  onChanged: (record: Row) => void;
  /** True while the form has unsaved changes: an action would act on the stored record, not on what is typed. */
  dirty: boolean;
  /** The action failed: the form marks the fields the server named (else a toast says what went wrong). */
  onFailed?: (err: unknown) => void;
}

/**
 * Which fields the record's workflow keeps the user from changing: the status
 * always (it moves through actions), and in a locked state every field but the
 * state's editable ones. The server enforces the same.
 */
export function workflowLock(entity: EntitySchema, record: Row | null): { locked: boolean; fields: string[]; key: string } {
  const w = entity.workflow;
  if (!w) return { locked: false, fields: [], key: '' };
  const state = w.states.find((s) => s.value === record?.[w.field]);
  if (!state?.locked) return { locked: false, fields: [w.field], key: w.field };
  const fields = Object.keys(entity.fields).filter((f) => !(state.editable ?? []).includes(f));
  return { locked: true, fields, key: `${state.value}` };
}

/** Actions that end the document's life ask first, with the spec's confirm dialog. */
const ASKS_FIRST = /cancel|void|reject/;

/** An action that posts: it moves the record into a locked state (it cannot be edited afterwards). */
export function postsRecord(entity: EntitySchema, tr: WorkflowTransition): boolean {
  return !!entity.workflow?.states.find((s) => s.value === tr.to)?.locked;
}

/** The record's numbering company, when its number is drawn on posting per company (a tax invoice): the link field. */
function numberedPer(entity: EntitySchema): string | null {
  const n = entity.numbering;
  if (n?.assignOn !== 'post') return null;
  const per = n.per?.[0];
  return per && entity.fields[per]?.type === 'link' ? per : null;
}

/**
 * The buttons of a record's workflow: the declared actions its current state
 * allows (the server checks the same), and "amend" for a cancelled document.
 */
export function WorkflowActions({ entity, record, onChanged, dirty, onFailed }: WorkflowActionsProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<WorkflowTransition | null>(null);
  const [company, setCompany] = useState<string | null>(null);
  // what the confirm dialog asked for (a void's reason), sent with the action
  const [typed, setTyped] = useState<Record<string, string>>({});
  // an action refused with a reason an approver may lift (a supervisor's PIN): the feature's dialog, then the action again
  const [approving, setApproving] = useState<{ tr: WorkflowTransition; approval: ActionApproval; error: string | null } | null>(null);
  const w = entity.workflow;
  if (!w || record.id === undefined) return null;
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const state = String(record[w.field] ?? '');
  const possible = w.transitions.filter((tr) => tr.from.includes(state));
  const docNo = String(record[entity.titleField] ?? '');
  const ask = (tr: WorkflowTransition) => {
    setAsking(tr);
    setTyped({});
    const per = numberedPer(entity);
    const target = per ? entity.fields[per]!.entity : undefined;
    if (per && target && record[per] !== null && record[per] !== undefined) {
      // "the next number of TPT": the company's code (or its name) as people know it
      api.get<{ data: Row }>(`/api/${target}/${String(record[per])}`, { searchParams: { fields: 'id,code' } })
        .then((r) => setCompany(String(r.data.code ?? '') || null), () => setCompany(null));
    } else setCompany(null);
  };
  const question = (tr: WorkflowTransition): string => {
    if (ASKS_FIRST.test(tr.action)) return `${tr.label[lang]} ${docNo}?`;
    const per = numberedPer(entity);
    // the number series and the date the document gets, as the server will give them
    const preview = docNo ? null : issuePreview(entity, record, per ? { [`${per}.code`]: company ?? '…' } : {}, i18n.language);
    if (preview) return t('document.confirm_post_series', { action: tr.label[lang], series: preview.series, date: preview.date });
    return t('document.confirm_post', { action: tr.label[lang], doc: docNo || t('form.draft') });
  };
  const asked = asking ? askedFields(entity, asking) : [];
  const cancelled = entity.document && entity.fields.amended_from && w.transitions.find((tr) => tr.action === (entity.document!.cancelAction ?? 'cancel'))?.to === state;

  const run = async (tr: WorkflowTransition, headers?: Record<string, string>) => {
    setAsking(null);
    setBusy(tr.action);
    try {
      const res = await api.post<{ data: Row }>(`/api/${entity.name}/${String(record.id)}/actions/${tr.action}`, actionBody(entity, tr, typed), headers ? { headers } : {});
      setApproving(null);
      toast('success', tr.label[lang], String(res.data[entity.titleField] ?? record[entity.titleField] ?? ''));
      onChanged(res.data);
    } catch (err) {
      const approval = approvalFor(entity, err);
      // asked without an approval: the dialog; refused with one (a wrong PIN): its words in the dialog
      if (approval && !headers) { setApproving({ tr, approval, error: null }); return; }
      if (headers && err instanceof ApiError && err.status === 403) { setApproving((a) => (a ? { ...a, error: err.message } : a)); return; }
      setApproving(null);
      if (onFailed) onFailed(err);
      else toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };
  const amend = async () => {
    setBusy('amend');
    try {
      const res = await api.post<{ data: Row }>(`/api/${entity.name}/${String(record.id)}/amend`, {});
      toast('success', t('document.amended'), String(res.data[entity.titleField] ?? ''));
      navigate(`/${entity.name}/${String(res.data.id)}`);
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {possible.map((tr) => (
        <Button key={tr.action} type="button" label={tr.label[lang]} outlined severity={ASKS_FIRST.test(tr.action) ? 'danger' : undefined}
          disabled={dirty || busy !== null} loading={busy === tr.action} title={dirty ? t('document.save_first') : undefined}
          onClick={() => (ASKS_FIRST.test(tr.action) || postsRecord(entity, tr) || askedFields(entity, tr).length ? ask(tr) : void run(tr))} />
      ))}
      {cancelled && <Button type="button" icon="pi pi-copy" label={t('document.amend')} outlined disabled={busy !== null} loading={busy === 'amend'} onClick={() => void amend()} />}
      <ConfirmDialog
        visible={asking !== null}
        header={asking?.label[lang]}
        message={asking ? question(asking) : ''}
        confirmLabel={asking?.label[lang]}
        busy={busy !== null}
        onConfirm={() => asking && void run(asking)}
        onCancel={() => setAsking(null)}
      >
        {asked.length > 0 ? asked.map((f, i) => (
          <label key={f} className="bo-field" htmlFor={`action-${f}`} style={{ display: 'flex', flexDirection: 'column', gap: '0.25rem', marginTop: '0.75rem' }}>
            <span>{entity.fields[f]!.label[lang]}</span>
            <InputTextarea id={`action-${f}`} data-testid={`action-field-${f}`} rows={2} autoFocus={i === 0} maxLength={entity.fields[f]!.maxLength}
              value={typed[f] ?? ''} onChange={(e) => setTyped((v) => ({ ...v, [f]: e.target.value }))} />
          </label>
        )) : null}
      </ConfirmDialog>
      {approving && (
        <approving.approval.Dialog what={approving.tr.label[lang]} error={approving.error} busy={busy !== null}
          onApprove={(headers) => void run(approving.tr, headers)} onCancel={() => setApproving(null)} />
      )}
    </>
  );
}
