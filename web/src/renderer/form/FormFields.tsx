import type { Control, FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { loc } from '../../core/i18n.ts';
import { fieldLabel } from '../../core/labels.ts';
import type { UploadedFile } from '../../core/file-api.ts';
import type { formSections, FormValues } from '../form-model.ts';

type FormSection = ReturnType<typeof formSections>[number];
import { FieldWidget } from '../fields/FieldWidget.tsx';
import { LinesGrid } from '../fields/LinesGrid.tsx';
import { uploadCategoryOf } from '../file-metadata.ts';

function messageAt(errors: FieldErrors<FormValues>, name: string): string | undefined {
  return (errors[name] as { message?: string } | undefined)?.message;
}

export interface FormFieldsProps {
  entity: EntitySchema;
  related: Record<string, EntitySchema>;
  sections: FormSection[];
  values: FormValues;
  control: Control<FormValues>;
  errors: FieldErrors<FormValues>;
  type: 'create' | 'edit';
  modal: boolean;
  visible: (name: string, values: FormValues) => boolean;
  required: (name: string, values: FormValues) => boolean;
  /** A field's warning while its `warnIf` holds (shown under it, never blocking). */
  warning?: (name: string, values: FormValues) => { th: string; en: string } | null;
  /** Fields shown but not editable (a posted document's, a related list's back-link). */
  disabled: (name: string) => boolean;
  onUploaded: (file: UploadedFile) => void;
}

/** The form's field layout: its sections, each a grid of labelled controls; a lines field is an editable grid. */
export function FormFields({ entity, related, sections, values, control, errors, type, modal, visible, required: isRequired, warning, disabled, onUploaded }: FormFieldsProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <>
      {sections.map((s) => {
        const shown = s.fields.filter((n) => visible(n, values) && !entity.fields[n]!.hidden);
        if (shown.length === 0) return null;
        return (
          <fieldset key={s.key} className="bo-section">
            {s.label && <legend>{loc(s.label, lang)}</legend>}
            <div className={`bo-grid cols-${modal ? Math.min(s.columns, 2) : s.columns}`}>
              {shown.map((name) => {
                const field = entity.fields[name]!;
                const fid = `${modal ? `${entity.name}-` : ''}field-${name}`;
                const err = messageAt(errors, name);
                const required = isRequired(name, values) && !(type === 'create' && entity.numbering?.field === name);
                const help = field.help ? loc(field.help, lang) : type === 'create' && entity.numbering?.field === name ? t('form.numbered') : undefined;
                const describedBy = [err ? `${fid}-error` : '', help ? `${fid}-help` : ''].filter(Boolean).join(' ') || undefined;
                if (field.type === 'lines') {
                  const child = related[field.entity!];
                  if (!child) return null;
                  return (
                    <div key={name} className="bo-field bo-field-wide" data-field={name}>
                      <LinesGrid name={name} label={fieldLabel(t, entity.name, name, field, lang)} child={child} control={control} related={related} errors={errors} disabled={disabled(name)} pickerSetting={field.pickerSetting} balance={field.balance} />
                    </div>
                  );
                }
                const wide = field.type === 'text' || field.type === 'json';
                const warn = warning?.(name, values);
                return (
                  <div key={name} className={`bo-field ${wide ? 'bo-field-wide' : ''} ${field.type === 'boolean' ? 'bo-field-check' : ''}`} data-field={name}>
                    <label htmlFor={fid}>
                      {fieldLabel(t, entity.name, name, field, lang)}
                      {required && <span className="bo-required" aria-hidden="true"> *</span>}
                    </label>
                    <FieldWidget name={name} field={field} control={control} related={related} lang={lang} id={fid}
                      invalid={!!err} describedBy={describedBy} disabled={disabled(name)}
                      uploadCategory={uploadCategoryOf(entity, field)} onUploaded={onUploaded} />
                    {help && !err && <small id={`${fid}-help`} className="bo-help">{help}</small>}
                    {err && <small id={`${fid}-error`} className="p-error bo-field-error" role="alert">{err}</small>}
                    {warn && !err && <small className="bo-field-warning" role="status" data-warning={name}>⚠ {loc(warn, lang)}</small>}
                  </div>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </>
  );
}
