import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { Thumbnail } from '../Thumbnail.tsx';

export interface LinkSelectProps {
  entity: string;
  displayField: string;
  value: number | null;
  onChange: (id: number | null, label: string) => void;
  /** The label of the current value when the caller already knows it. */
  initialLabel?: string;
  id?: string;
  ariaLabel?: string;
  invalid?: boolean;
  disabled?: boolean;
  onBlur?: () => void;
  /** The target's field holding a colour (#rrggbb): shown as a swatch on the value and the options. */
  colorField?: string;
  /** Colour shown when the target row has none (the colour field's default). */
  defaultColor?: string;
  /** A list filter (the filter grammar) limiting the choices: the schema's linkFilter with the form's values. */
  filter?: Record<string, unknown>;
  /** More fields of the target shown in each option after the display field (page settings: the product picker's columns). */
  columns?: string[];
  /** Fields whose values, joined, label the value and each option instead of the display field (site setting: the product dropdown). */
  labelFields?: string[];
  /** An image field of the linked entity shown as a thumbnail in each choice (the product image, when the site shows them). */
  imageField?: string;
}

type Option = { id: number; label: string; color?: string; extra?: string[]; image?: string };
const ROW = 36;

/** A searchable dropdown of a linked entity: loads with `search` and `fields=id,<displayField>`; the option list is virtualized. */
export function LinkSelect({ entity, displayField, value, onChange, initialLabel, id, ariaLabel, invalid, disabled, onBlur, colorField, defaultColor, filter, columns, labelFields, imageField }: LinkSelectProps) {
  const filterText = filter ? JSON.stringify(filter) : undefined;
  const { t } = useTranslation();
  const listId = useId();
  const [label, setLabel] = useState(initialLabel ?? '');
  const [color, setColor] = useState<string | undefined>(undefined);
  const shown = labelFields?.length ? labelFields : [displayField];
  const labelOf = (row: Record<string, unknown>, fallback: unknown) => shown.map((c) => row[c]).filter((v) => v !== null && v !== undefined && v !== '').map(String).join(' ') || String(fallback);
  const fields = ['id', ...new Set([displayField, ...shown]), ...(colorField ? [colorField] : [])].join(',');
  const extraCols = (columns ?? []).filter((c) => c !== displayField && c !== 'id');
  const listFieldsParam = [fields, ...extraCols, ...(imageField ? [imageField] : [])].join(',');
  const cell = (v: unknown) => (v === null || v === undefined || v === '' ? '–' : typeof v === 'boolean' ? (v ? '✓' : '✗') : String(v));
  const colorOf = (row: Record<string, unknown>) => (colorField ? (typeof row[colorField] === 'string' && row[colorField] ? String(row[colorField]) : defaultColor) : undefined);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Option[]>([]);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  // the label of a value set from outside (a loaded record)
  useEffect(() => {
    if (value === null || value === undefined) { setLabel(''); setColor(undefined); return; }
    if (initialLabel && !colorField) { setLabel(initialLabel); return; }
    let live = true;
    api.get<{ data: Record<string, unknown> }>(`/api/${entity}/${value}`, { searchParams: { fields } })
      .then((r) => { if (live) { setLabel(labelOf(r.data, value)); setColor(colorOf(r.data)); } }, () => live && setLabel(initialLabel || `#${value}`));
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
    // the label fields are in the deps: a changed dropdown setting may keep the fetched fields the same
  }, [entity, displayField, value, initialLabel, fields, shown.join(',')]);

  useEffect(() => {
    if (!open) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      api.get<{ data: Array<Record<string, unknown>> }>(`/api/${entity}`, {
        searchParams: { search: query, fields: listFieldsParam, limit: 200, sort: displayField, filter: filterText },
        signal: ctl.signal,
      }).then((r) => {
        setOptions(r.data.map((row) => ({ id: Number(row.id), label: labelOf(row, row.id), color: colorOf(row), extra: extraCols.map((c) => cell(row[c])), image: imageField && typeof row[imageField] === 'string' ? String(row[imageField]) : undefined })));
        setActive(0);
      }, () => undefined).finally(() => { if (!ctl.signal.aborted) setLoading(false); });
    }, 200);
    return () => { clearTimeout(timer); ctl.abort(); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, query, entity, displayField, listFieldsParam, filterText, shown.join(',')]);

  const virtualizer = useVirtualizer({ count: options.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 6 });

  const choose = (o: Option | null) => {
    onChange(o ? o.id : null, o ? o.label : '');
    setLabel(o ? o.label : '');
    setColor(o?.color);
    setOpen(false);
    setQuery('');
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); if (!open) setOpen(true); else { const n = Math.min(active + 1, options.length - 1); setActive(n); virtualizer.scrollToIndex(n); } }
    else if (e.key === 'ArrowUp') { e.preventDefault(); const n = Math.max(active - 1, 0); setActive(n); virtualizer.scrollToIndex(n); }
    else if (e.key === 'Enter' && open) { e.preventDefault(); const o = options[active]; if (o) choose(o); }
    else if (e.key === 'Escape' && open) { e.preventDefault(); e.stopPropagation(); setOpen(false); setQuery(''); }
  };

  return (
    <div
      className={`bo-link-select ${invalid ? 'p-invalid' : ''} ${colorField ? 'has-color' : ''}`}
      data-color={!open && color ? color : undefined}
      ref={rootRef}
      onBlur={(e) => { if (!rootRef.current?.contains(e.relatedTarget as Node)) { setOpen(false); setQuery(''); onBlur?.(); } }}
    >
      {colorField && !open && color && <span className="bo-link-swatch" style={{ background: color }} aria-hidden="true" />}
      <input
        id={id}
        className={`p-inputtext p-component ${invalid ? 'p-invalid' : ''}`}
        role="combobox"
        aria-label={ariaLabel}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        autoComplete="off"
        value={open ? query : label}
        placeholder={open ? label || t('common.search') : t('common.select')}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onChange={(e) => { setQuery(e.target.value); setOpen(true); }}
        onKeyDown={onKey}
      />
      {value !== null && value !== undefined && !disabled && (
        <button type="button" className="bo-link-clear" aria-label={t('common.clear')} onClick={() => choose(null)}>
          <i className="pi pi-times" aria-hidden="true" />
        </button>
      )}
      {open && (
        <div className="bo-link-panel" ref={scrollRef} tabIndex={-1}>
          {loading && options.length === 0 && <div className="bo-link-empty"><i className="pi pi-spin pi-spinner" aria-hidden="true" /></div>}
          {!loading && options.length === 0 && <div className="bo-link-empty">{t('list.empty')}</div>}
          <ul id={listId} role="listbox" aria-label={ariaLabel} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const o = options[v.index]!;
              return (
                <li
                  key={o.id}
                  id={`${listId}-${v.index}`}
                  role="option"
                  aria-selected={o.id === value}
                  className={`${v.index === active ? 'active' : ''} ${o.id === value ? 'selected' : ''}`}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${v.start}px)` }}
                  onMouseDown={(e) => { e.preventDefault(); choose(o); }}
                  onMouseEnter={() => setActive(v.index)}
                >
                  {imageField && (o.image ? <Thumbnail id={o.image} /> : <span className="bo-thumb bo-thumb-empty" aria-hidden="true" />)}
                  {o.color && <span className="bo-swatch" style={{ background: o.color }} aria-hidden="true" />}
                  {o.label}
                  {o.extra?.map((x, i) => <span key={i} className="bo-link-extra" data-column={extraCols[i]}> · {x}</span>)}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
