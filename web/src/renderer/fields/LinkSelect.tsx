import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { Thumbnail } from '../Thumbnail.tsx';
import { pickerSort } from '../product-dropdown.ts';

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
  /** The choices' order (a field of the target); the display field when not given. */
  sort?: string;
}

type Option = { id: number; label: string; color?: string; extra?: string[]; image?: string };
const ROW = 36;

/** A searchable dropdown of a linked entity: loads with `search` and `fields=id,<displayField>`; the option list is virtualized. */
export function LinkSelect({ entity, displayField, value, onChange, initialLabel, id, ariaLabel, invalid, disabled, onBlur, colorField, defaultColor, filter, columns, labelFields, imageField, sort }: LinkSelectProps) {
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
  const inputRef = useRef<HTMLInputElement>(null);
  const place = usePanelPlace(open, inputRef);

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
        searchParams: { search: query, fields: listFieldsParam, limit: 200, sort: sort ?? pickerSort(displayField, shown), filter: filterText },
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
      // holds a value even before its label has loaded: the form's first focus skips a filled picker (form-keys.ts)
      data-empty={value === null || value === undefined ? '' : undefined}
      ref={rootRef}
      onBlur={(e) => { if (!rootRef.current?.contains(e.relatedTarget as Node) && !scrollRef.current?.contains(e.relatedTarget as Node)) { setOpen(false); setQuery(''); onBlur?.(); } }}
    >
      {colorField && !open && color && <span className="bo-link-swatch" style={{ background: color }} aria-hidden="true" />}
      <input
        ref={inputRef}
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
        // focus opens the list only on a document line (a new line's product is chosen next); in the header a
        // click, typing or ArrowDown opens it, so a form opening on a picker, or Tab and Enter through it, pops no list
        onFocus={(e) => { if (e.currentTarget.closest('[data-line-row]')) setOpen(true); }}
        onClick={() => setOpen(true)}
        onChange={(e) => { setQuery(e.target.value); setOpen(true); }}
        onKeyDown={onKey}
      />
      {value !== null && value !== undefined && !disabled && (
        // not a Tab stop: Tab goes from field to field; the value is cleared by mouse, or by emptying the text
        <button type="button" className="bo-link-clear" tabIndex={-1} aria-label={t('common.clear')} onClick={() => choose(null)}>
          <i className="pi pi-times" aria-hidden="true" />
        </button>
      )}
      {open && createPortal(
        // in a portal on the page's body, placed by the input: a lines table's scroll box cannot clip it
        <div className="bo-link-panel bo-link-panel-floating" ref={scrollRef} tabIndex={-1} data-for={id} style={place}>
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
                  {imageField && o.image && <Thumbnail id={o.image} />}
                  {o.color && <span className="bo-swatch" style={{ background: o.color }} aria-hidden="true" />}
                  {o.label}
                  {o.extra?.map((x, i) => <span key={i} className="bo-link-extra" data-column={extraCols[i]}> · {x}</span>)}
                </li>
              );
            })}
          </ul>
        </div>,
        document.body,
      )}
    </div>
  );
}

const PANEL_HEIGHT = 260;

/** Where the open panel goes: under the input, or above it when the window has no room below; follows scrolling. */
function usePanelPlace(open: boolean, input: React.RefObject<HTMLInputElement | null>): React.CSSProperties {
  const [place, setPlace] = useState<React.CSSProperties>({ visibility: 'hidden' });
  useLayoutEffect(() => {
    if (!open) return;
    const update = () => {
      const r = input.current?.getBoundingClientRect();
      if (!r) return;
      const width = Math.min(Math.max(r.width, 320), window.innerWidth - 16);
      const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8));
      const below = window.innerHeight - r.bottom - 8;
      const up = below < Math.min(PANEL_HEIGHT, 160) && r.top > below;
      const maxHeight = Math.max(120, Math.min(PANEL_HEIGHT, (up ? r.top : below) - 8));
      setPlace(up ? { position: 'fixed', left, width, top: 'auto', bottom: window.innerHeight - r.top + 4, maxHeight } : { position: 'fixed', left, width, top: r.bottom + 4, maxHeight });
    };
    update();
    window.addEventListener('scroll', update, true);
    window.addEventListener('resize', update);
    return () => { window.removeEventListener('scroll', update, true); window.removeEventListener('resize', update); };
  }, [open, input]);
  return place;
}
