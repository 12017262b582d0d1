import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { WorkflowActions } from '../WorkflowActions.tsx';
import { DocumentOutput } from '../DocumentOutput.tsx';
import type { FormValues } from '../form-model.ts';
import { formPanels } from './form-panels.ts';

export interface FormActionsProps {
  entity: EntitySchema;
  record: FormValues;
  type: 'create' | 'edit';
  id?: number;
  modal: boolean;
  singleton?: boolean;
  formId: string;
  dirty: boolean;
  submitting: boolean;
  /** The role may change records of this entity (hiding is convenience: the server refuses the same). */
  mayEdit: boolean;
  /** A posted (locked) record: it cannot be deleted. */
  locked: boolean;
  /** Some field can still change (a locked state may leave some editable). */
  saveable: boolean;
  /** The record's fields cannot change at all (a ledger). */
  readOnly: boolean;
  onDelete: () => void;
  onLeave: () => void;
  onChanged: (record: FormValues) => void;
  /** A workflow action failed: the form marks the fields the server named and says what to do. */
  onFailed: (err: unknown) => void;
  reload: () => void;
}

/**
 * The form's buttons: delete, the workflow's actions, output, the panels documents add
 * (their next steps), leave, save. Buttons the record or the role cannot use are not shown.
 */
export function FormActions(p: FormActionsProps) {
  const { t } = useTranslation();
  const { entity, record, type, id, modal, singleton } = p;
  const edit = type === 'edit' && id !== undefined;
  const canSave = !p.readOnly && p.mayEdit && p.saveable;
  return (
    <div className="bo-form-actions">
      {edit && !singleton && !p.readOnly && !p.locked && p.mayEdit && (
        <Button type="button" icon="pi pi-trash" label={t('common.delete')} severity="danger" outlined onClick={p.onDelete} />
      )}
      {edit && p.mayEdit && <WorkflowActions entity={entity} record={record} dirty={p.dirty} onChanged={p.onChanged} onFailed={p.onFailed} />}
      {edit && !modal && <DocumentOutput entity={entity} record={record} />}
      {edit && !modal && formPanels(entity, 'actions').map(({ key, Component }) => <Component key={key} entity={entity} id={id!} record={record} reload={p.reload} />)}
      <span className="bo-toolbar-spacer" />
      {canSave && <span className="bo-muted bo-shortcuts">{modal ? t('form.shortcuts_modal') : t('form.shortcuts')}</span>}
      {!singleton && (
        // leaving the form: worded so it cannot be taken for cancelling the document (ยกเลิกเอกสาร)
        <Button type="button" icon={modal ? undefined : 'pi pi-arrow-left'} label={modal ? t('common.close') : t('form.back_to_list')} severity="secondary" outlined onClick={p.onLeave} />
      )}
      {canSave && <Button type="submit" form={p.formId} icon="pi pi-check" label={t('common.save')} loading={p.submitting} />}
    </div>
  );
}
