import { useTranslation } from 'react-i18next';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../../../engine/schema/document-spec-types.ts';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { DateInput } from '../../renderer/fields/DateInput.tsx';
import { LinkSelect } from '../../renderer/fields/LinkSelect.tsx';
import './finance-i18n.ts';

type Row = Record<string, unknown>;
const TYPES = new Set(['date', 'string', 'text', 'enum', 'integer', 'link']);

/**
 * The header fields the create-from screen offers for the new document: those of
 * the target's first form section (its date, due date, inventory …), its reference
 * fields and its free-text remarks, that a user writes on a new record: not read-only
 * or hidden, not the number, the status or the lines, not what the sources give
 * (the customer: `header` of the source declaration), and of a type a plain input
 * takes. The server still judges every value as on a normal create.
 */
export function createFromHeaderFields(target: EntitySchema, spec: DocumentSource | undefined): string[] {
  const first = new Set(target.form?.sections?.[0]?.fields ?? []);
  const given = new Set(spec?.header ?? []);
  return Object.entries(target.fields)
    .filter(([name, f]) => first.has(name) || f.type === 'text' || /reference/.test(name))
    .filter(([name, f]) => TYPES.has(f.type) && !f.readOnly && !f.hidden && !given.has(name)
      && name !== target.workflow?.field && name !== target.numbering?.field && !(f.type === 'link' && f.linkFilter))
    .map(([name]) => name);
}

/** A body value from what an input holds: empty inputs are left out, so the schema's defaults apply. */
export function headerBody(target: EntitySchema, values: Record<string, string>): Row {
  const out: Row = {};
  for (const [name, raw] of Object.entries(values)) {
    const f = target.fields[name];
    if (!f || raw.trim() === '') continue;
    out[name] = f.type === 'integer' || f.type === 'link' ? Number(raw) : raw;
  }
  return out;
}

/** Inputs for the new document's header values, sent as `values` with the create-from request. */
export function CreateFromHeader({ target, fields, readable, values, onChange }: {
  target: EntitySchema; fields: string[]; readable: string[] | undefined; values: Record<string, string>; onChange: (name: string, value: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const shown = fields.filter((n) => target.fields[n]!.type !== 'link' || !readable || readable.includes(target.fields[n]!.entity!));
  if (!shown.length) return null;
  return (
    <fieldset className="bo-section" data-testid="create-from-header">
      <legend>{t('create_from.header')}</legend>
      <div className="bo-grid cols-2">
        {shown.map((name) => {
          const f = target.fields[name]!;
          const id = `create-from-${name}`;
          const common = { id, name, value: values[name] ?? '', onChange: (e: { target: { value: string } }) => onChange(name, e.target.value) };
          // the app's own widgets, so a date reads as everywhere else (Buddhist-era years in Thai)
          return (
            <div key={name} className="bo-field" data-field={name}>
              <label htmlFor={id}>{f.label[lang]}{f.required && f.default === undefined && <span className="bo-required" aria-hidden="true"> *</span>}</label>
              {f.type === 'date' ? <DateInput id={id} lang={lang} value={values[name] ?? ''} onChange={(v) => onChange(name, v)} />
                : f.type === 'text' ? <InputTextarea {...common} rows={2} maxLength={f.maxLength} autoResize />
                : f.type === 'enum' ? <select {...common} className="p-inputtext p-component"><option value="" />{f.options!.map((o) => <option key={o.value} value={o.value}>{o.label[lang]}</option>)}</select>
                : f.type === 'link' ? <LinkSelect id={id} entity={f.entity!} displayField={f.displayField ?? 'id'} value={values[name] ? Number(values[name]) : null} onChange={(v) => onChange(name, v === null ? '' : String(v))} />
                : <InputText {...common} inputMode={f.type === 'integer' ? 'numeric' : undefined} maxLength={f.maxLength} />}
            </div>
          );
        })}
      </div>
      <p className="bo-muted">{t('create_from.header_note')}</p>
    </fieldset>
  );
}
