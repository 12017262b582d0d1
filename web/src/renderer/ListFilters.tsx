import { useTranslation } from 'react-i18next';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { loc } from '../core/i18n.ts';
import { fieldLabel } from '../core/labels.ts';
import { fieldCond, filterKind, linesFilterField, withFieldFilter } from './list-columns.ts';
import { displayFieldOf } from './format-value.ts';
import { LinkSelect } from './fields/LinkSelect.tsx';
import { DateInput } from './fields/DateInput.tsx';

export interface ListFiltersProps {
  entity: EntitySchema;
  related: Record<string, EntitySchema>;
  names: string[];
  filter: Record<string, unknown>;
  onChange: (filter: Record<string, unknown>) => void;
}

/** One filter control per field, by type; the result is a filter in the list grammar. */
export function ListFilters({ entity, related, names, filter, onChange }: ListFiltersProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <div className="bo-filters" role="group" aria-label={t('list.filters')}>
      {names.map((name) => {
        const through = linesFilterField(entity, related, name);
        const field = through?.field ?? (name.includes('.') ? undefined : entity.fields[name]);
        if (!field) return null;
        const kind = filterKind(field);
        if (!kind) return null;
        const label = through
          ? `${fieldLabel(t, entity.name, through.lines, entity.fields[through.lines]!, lang)}: ${fieldLabel(t, through.child.name, through.rest, field, lang)}`
          : fieldLabel(t, entity.name, name, field, lang);
        const cond = fieldCond(filter, name);
        const set = (c: Record<string, unknown> | null) => onChange(withFieldFilter(filter, name, c));
        const id = `filter-${name.replace(/\./g, '-')}`;
        return (
          <div key={name} className={`bo-filter bo-filter-${kind}`}>
            <label htmlFor={id}>{label}</label>
            {kind === 'text' && (
              <input id={id} className="p-inputtext p-component" value={String(cond._icontains ?? '')} placeholder={t('list.contains')}
                onChange={(e) => set({ _icontains: e.target.value })} />
            )}
            {kind === 'enum' && (
              <select id={id} className="p-inputtext p-component" value={String(cond._eq ?? '')} onChange={(e) => set({ _eq: e.target.value })}>
                <option value="">{t('common.all')}</option>
                {field.options!.map((o) => <option key={o.value} value={o.value}>{loc(o.label, lang)}</option>)}
              </select>
            )}
            {kind === 'boolean' && (
              <select id={id} className="p-inputtext p-component" value={cond._eq === undefined ? '' : String(cond._eq)}
                onChange={(e) => set(e.target.value === '' ? null : { _eq: e.target.value === 'true' })}>
                <option value="">{t('common.all')}</option>
                <option value="true">{t('common.yes')}</option>
                <option value="false">{t('common.no')}</option>
              </select>
            )}
            {kind === 'link' && (
              <LinkSelect id={id} entity={field.entity!} displayField={displayFieldOf(field, related[field.entity!])}
                value={typeof cond._eq === 'number' ? cond._eq : null} onChange={(v) => set(v === null ? null : { _eq: v })} />
            )}
            {kind === 'range-date' && (
              <div className="bo-range">
                <DateInput id={id} lang={lang} ariaLabel={`${label} ${t('list.from')}`} value={String(cond._gte ?? '')}
                  onChange={(v) => set({ ...cond, _gte: v })} />
                <span aria-hidden="true">–</span>
                <DateInput lang={lang} ariaLabel={`${label} ${t('list.to')}`} value={String(cond._lte ?? '')}
                  onChange={(v) => set({ ...cond, _lte: v })} />
              </div>
            )}
            {kind === 'range-number' && (
              <div className="bo-range">
                <input id={id} aria-label={`${label} ${t('list.from')}`} className="p-inputtext p-component"
                  type="number" value={String(cond._gte ?? '')}
                  onChange={(e) => set({ ...cond, _gte: e.target.value !== '' ? Number(e.target.value) : e.target.value })} />
                <span aria-hidden="true">–</span>
                <input aria-label={`${label} ${t('list.to')}`} className="p-inputtext p-component"
                  type="number" value={String(cond._lte ?? '')}
                  onChange={(e) => set({ ...cond, _lte: e.target.value !== '' ? Number(e.target.value) : e.target.value })} />
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
