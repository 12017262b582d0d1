import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Controller, useWatch, type Control } from 'react-hook-form';
import { linkFilterCondition, linkFilterParent, linkFilterSource } from '../../../../engine/schema/schema-types.ts';
import { useAtomValue } from 'jotai';
import { sessionAtom } from '../../core/session-atoms.ts';
import { settingsAtom } from '../../core/app-data.ts';
import { fieldEnabled } from '../field-enabled.ts';
import { InputNumber } from 'primereact/inputnumber';
import { Dropdown } from 'primereact/dropdown';
import { Checkbox } from 'primereact/checkbox';
import type { EntitySchema, FieldDef } from '../../../../engine/schema/schema-types.ts';
import { loc } from '../../core/i18n.ts';
import { displayFieldOf, fieldScale, leastDecimals } from '../format-value.ts';
import { linkColor } from '../list-columns.ts';
import { LinkSelect } from './LinkSelect.tsx';
import { DateInput } from './DateInput.tsx';
import { FileField } from './FileField.tsx';
import type { UploadedFile } from '../../core/file-api.ts';
import type { FormValues } from '../form-model.ts';

export interface FieldWidgetProps {
  name: string;
  field: FieldDef;
  control: Control<FormValues>;
  related: Record<string, EntitySchema>;
  lang: string;
  id: string;
  invalid: boolean;
  describedBy?: string;
  /** Inside a lines grid the label is not shown, so the control carries it. */
  ariaLabel?: string;
  compact?: boolean;
  disabled?: boolean;
  /** file/image: the upload category (the entity name) and a hook after a successful upload. */
  uploadCategory?: string;
  onUploaded?: (file: UploadedFile) => void;
  /** link: the fields that label the choices (a document's product dropdown setting). */
  labelFields?: string[];
}

const TEXT_TYPES: Record<string, { type: string; inputMode?: 'email' | 'url' | 'tel' | 'numeric' }> = {
  string: { type: 'text' }, email: { type: 'email', inputMode: 'email' }, url: { type: 'url', inputMode: 'url' },
  phone: { type: 'tel', inputMode: 'tel' }, tax_id: { type: 'text', inputMode: 'numeric' },
};

/** One control per field type; every control gets its accessible name from a label or aria-label. */
/** The linked entity's image field a picker shows as thumbnails, while the site settings show it (enabledBy). */
function imageFieldOf(target: EntitySchema | undefined, site: Record<string, unknown> | null): string | undefined {
  if (!site) return undefined;
  return Object.entries(target?.fields ?? {}).find(([, f]) => f.type === 'image' && !f.hidden && fieldEnabled(f, site))?.[0];
}

export function FieldWidget({ name, field, control, related, lang, id, invalid, describedBy, ariaLabel, compact, disabled, uploadCategory, onUploaded, labelFields }: FieldWidgetProps) {
  const cls = `p-inputtext p-component ${compact ? 'p-inputtext-sm' : ''} ${invalid ? 'p-invalid' : ''}`;
  const aria = { 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy, 'aria-label': ariaLabel };
  const ro = disabled || field.readOnly;
  const session = useAtomValue(sessionAtom);
  const siteState = useAtomValue(settingsAtom);
  const site = siteState.status === 'loaded' ? siteState.data : null;
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: f }) => {
        switch (field.type) {
          case 'text':
            return <textarea id={id} className={cls} rows={compact ? 1 : 3} {...aria} disabled={ro} name={f.name} ref={f.ref} value={String(f.value ?? '')} onChange={f.onChange} onBlur={f.onBlur} />;
          case 'json':
            return <textarea id={id} className={`${cls} bo-mono`} rows={5} spellCheck={false} {...aria} disabled={ro} name={f.name} ref={f.ref} value={String(f.value ?? '')} onChange={f.onChange} onBlur={f.onBlur} />;
          case 'integer': case 'decimal': case 'money': {
            const scale = fieldScale(field);
            return (
              <InputNumber
                inputId={id} inputRef={f.ref} value={typeof f.value === 'number' ? f.value : null}
                onValueChange={(e) => f.onChange(e.value ?? null)} onBlur={f.onBlur}
                // typing reports through onChange (onValueChange only on blur): Ctrl+S right after typing keeps the number
                onChange={(e) => f.onChange(e.value ?? null)}
                minFractionDigits={leastDecimals(field)} maxFractionDigits={Math.max(scale, 0)} useGrouping={field.type !== 'integer'}
                locale="en-US" disabled={ro} invalid={invalid} className={compact ? 'p-inputtext-sm' : ''}
                inputClassName={field.type === 'money' ? 'num' : undefined}
                aria-describedby={describedBy} aria-label={ariaLabel}
                {...(field.min !== undefined ? { min: field.min } : {})} {...(field.max !== undefined ? { max: field.max } : {})}
              />
            );
          }
          case 'boolean':
            return <Checkbox inputId={id} inputRef={f.ref} checked={!!f.value} onChange={(e) => f.onChange(!!e.checked)} onBlur={f.onBlur} disabled={ro} invalid={invalid} aria-label={ariaLabel} aria-describedby={describedBy} />;
          case 'date': case 'datetime':
            return (
              <DateInput id={id} inputRef={f.ref} value={String(f.value ?? '')} onChange={(v) => f.onChange(v)} onBlur={f.onBlur}
                withTime={field.type === 'datetime'} lang={lang} ariaLabel={ariaLabel} describedBy={describedBy} invalid={invalid} disabled={ro} compact={compact} />
            );
          case 'enum':
            return (
              <Dropdown
                inputId={id} inputRef={f.ref} value={f.value ?? null} onChange={(e) => f.onChange(e.value ?? '')} onBlur={f.onBlur}
                options={field.options!.map((o) => ({ value: o.value, label: loc(o.label, lang), color: o.color }))}
                optionLabel="label" optionValue="value" showClear={!field.required} disabled={ro} invalid={invalid}
                // the clear icon is not a Tab stop, and says "ล้าง" in Thai
                pt={{ clearIcon: { tabIndex: -1, 'aria-label': t('common.clear') } as never }}
                className={`bo-dropdown ${compact ? 'p-inputtext-sm' : ''}`} ariaLabel={ariaLabel} aria-describedby={describedBy}
                itemTemplate={(o: { label: string; color?: string }) => <span className="bo-option">{o.color && <span className="bo-swatch" style={{ background: o.color }} />}{o.label}</span>}
                valueTemplate={(o: { label: string; color?: string } | null, p) => o
                  ? <span className="bo-option">{o.color && <span className="bo-swatch" style={{ background: o.color }} />}{o.label}</span>
                  : <span>{p.placeholder ?? '\u00a0'}</span>}
              />
            );
          case 'color':
            return (
              <div className="bo-color">
                <input type="color" aria-label={`${ariaLabel ?? loc(field.label, lang)} (picker)`} value={/^#[0-9a-fA-F]{6}$/.test(String(f.value)) ? String(f.value) : '#000000'} disabled={ro} onChange={(e) => f.onChange(e.target.value)} />
                <input id={id} className={cls} {...aria} disabled={ro} name={f.name} ref={f.ref} value={String(f.value ?? '')} onChange={f.onChange} onBlur={f.onBlur} placeholder="#RRGGBB" />
              </div>
            );
          case 'link': {
            const target = related[field.entity!];
            return (
              <LinkField name={name} field={field} control={control} onChange={(v) => f.onChange(v)} value={typeof f.value === 'number' ? f.value : null}
                render={(filter) => <LinkSelect id={id} filter={filter} entity={field.entity!} displayField={displayFieldOf(field, target)} value={typeof f.value === 'number' ? f.value : null}
                // the signed-in user ($CURRENT_USER) is named from the session, even without view on the accounts
                initialLabel={field.default === '$CURRENT_USER' && f.value === session.id && displayFieldOf(field, target) === 'username' ? session.username || undefined : undefined}
                onChange={(v) => f.onChange(v)} onBlur={f.onBlur} invalid={invalid} disabled={ro} ariaLabel={ariaLabel}
                colorField={field.colorField && target?.fields[field.colorField] ? field.colorField : undefined}
                defaultColor={field.colorField ? linkColor(field, target, null) : undefined}
                // the site's product dropdown setting, else the schema's pickerLabel (an account: code and name)
                labelFields={(labelFields ?? field.pickerLabel)?.filter((c) => !target || target.fields[c])}
                sort={!labelFields && field.pickerLabel && (!target || target.fields[field.pickerLabel[0]!]) ? field.pickerLabel[0] : undefined}
                imageField={imageFieldOf(target, site)}
                columns={field.pickerColumns?.filter((c) => !target || target.fields[c])} />} />
            );
          }
          case 'file': case 'image':
            return (
              <FileField id={id} field={field} value={typeof f.value === 'string' && f.value ? f.value : null} onChange={(v) => f.onChange(v ?? '')}
                onUploaded={onUploaded} category={uploadCategory ?? 'default'} disabled={ro} invalid={invalid} ariaLabel={ariaLabel} describedBy={describedBy} />
            );
          default: {
            const tt = TEXT_TYPES[field.type] ?? { type: 'text' };
            return (
              <input id={id} type={tt.type} inputMode={tt.inputMode} className={cls} {...aria} disabled={ro}
                maxLength={field.type === 'tax_id' ? 13 : field.maxLength} name={f.name} ref={f.ref}
                value={String(f.value ?? '')} onChange={f.onChange} onBlur={f.onBlur} />
            );
          }
        }
      }}
    />
  );
}

/**
 * A link whose choices depend on other fields (`linkFilter`): watches them, hands
 * the picker the list filter, and clears a chosen value when a field it depends
 * on changes to another value (the contact of the previous company).
 */
function LinkField({ name, field, control, value, onChange, render }: {
  name: string; field: FieldDef; control: Control<FormValues>; value: number | null;
  onChange: (v: number | null) => void; render: (filter: Record<string, unknown> | undefined) => React.ReactNode;
}) {
  const prefix = name.includes('.') ? name.slice(0, name.lastIndexOf('.') + 1) : '';
  const entries = Object.entries(field.linkFilter ?? {});
  // "$form.x" is a field of the same record (of the same line: under its prefix); "$parent.x" of the document the line is in
  const refOf = (v: unknown): string | null => { const up = linkFilterParent(v); if (up !== null) return up; const src = linkFilterSource(v); return src === null ? null : `${prefix}${src}`; };
  const sourceNames = entries.map(([, v]) => refOf(v)).filter((s): s is string => s !== null);
  const watched = useWatch({ control, name: sourceNames.length ? sourceNames : ['__none__'], disabled: sourceNames.length === 0 }) as unknown[];
  // the constants count too: page settings can change them while the form is open
  const key = JSON.stringify([sourceNames.length ? watched : [], field.linkFilter ?? null]);
  const filter = useMemo(() => {
    if (!entries.length) return undefined;
    const out: Record<string, unknown> = {};
    let i = 0;
    for (const [k, v] of entries) {
      const src = refOf(v);
      const val = src === null ? v : watched[i++];
      if (val === null || val === undefined || val === '') continue; // nothing chosen yet: no restriction
      out[k] = linkFilterCondition(val); // a list of constants is _in
    }
    return Object.keys(out).length ? out : undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const previous = useRef(key);
  useEffect(() => {
    const [before] = JSON.parse(previous.current) as [unknown[]];
    const [now] = JSON.parse(key) as [unknown[]];
    previous.current = key;
    const hadValue = before.some((v) => v !== null && v !== undefined && v !== '');
    if (hadValue && JSON.stringify(now) !== JSON.stringify(before) && value !== null) onChange(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return <>{render(filter)}</>;
}
