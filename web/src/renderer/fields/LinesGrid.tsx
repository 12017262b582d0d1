import { useEffect, useRef, type CSSProperties } from 'react';
import { useFieldArray, type Control, type FieldErrors } from 'react-hook-form';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { loc } from '../../core/i18n.ts';
import { defaultValues, type FormValues } from '../form-model.ts';
import { FieldWidget } from './FieldWidget.tsx';
import { isNumeric } from '../format-value.ts';
import { useAtomValue } from 'jotai';
import { settingsAtom } from '../../core/app-data.ts';
import { productLabelFields } from '../product-dropdown.ts';
import { LinesBalance } from './LinesBalance.tsx';
import { lineColumns, totalColumn } from './line-columns.ts';

export interface LinesGridProps {
  name: string;
  label: string;
  child: EntitySchema;
  control: Control<FormValues>;
  related: Record<string, EntitySchema>;
  errors: FieldErrors<FormValues>;
  disabled?: boolean;
  /** The site setting that decides what the product picker shows (the lines field's `pickerSetting`). */
  pickerSetting?: string;
  /** The lines' two money fields the grid totals and shows the difference of (the lines field's `balance`). */
  balance?: { debit: string; credit: string };
}

const ROW_HEIGHT = 48;
const VIRTUAL_FROM = 40;

function errorAt(errors: FieldErrors<FormValues>, path: string[]): string | undefined {
  let cur: unknown = errors;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return (cur as { message?: string } | undefined)?.message;
}

/** The longest text a column counts as short (a unit, "ม้วน"): it needs no more room than a number's. */
const SHORT_TEXT = 30;

/**
 * The column's class: numbers right-aligned, and a percentage (a number of at most 100: ส่วนลด (%), หัก ณ ที่จ่าย (%))
 * narrower than an amount; the product (a link) and text columns take the room a name needs, a short text (a unit) does not.
 */
function colClass(f: EntitySchema['fields'][string]): string | undefined {
  if (isNumeric(f)) return f.max !== undefined && f.max <= 100 ? 'bo-num-cell bo-line-narrow' : 'bo-num-cell';
  if (f.type === 'link') return 'bo-line-link';
  if (f.type === 'string' && f.maxLength !== undefined && f.maxLength <= SHORT_TEXT) return 'bo-line-short';
  if (f.type === 'string' || f.type === 'text') return 'bo-line-text';
  if (f.type === 'date' || f.type === 'datetime') return 'bo-line-date';
  return undefined;
}

/**
 * A column width the schema (or a page setting) gives: the heading's width, and the least width of a link's or a text's
 * cells (styles.css, `--bo-col-w`; a phone's card ignores it), which would otherwise widen the column again.
 */
const headStyle = (f: EntitySchema['fields'][string]) => (f.width ? { width: f.width, minWidth: f.width, '--bo-col-w': `${f.width}px` } as CSSProperties : undefined);
const cellStyle = (f: EntitySchema['fields'][string]) => (f.width ? { '--bo-col-w': `${f.width}px` } as CSSProperties : undefined);

/** An editable grid of a lines field: add and remove rows; long grids render only the visible rows. */
export function LinesGrid({ name, label, child, control, related, errors, disabled, pickerSetting, balance }: LinesGridProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const settings = useAtomValue(settingsAtom);
  const siteSettings = settings.status === 'loaded' ? settings.data : null;
  const { fields: rows, append, remove } = useFieldArray({ control, name: name as never, keyName: '_key' });
  // read-only columns (a line's amount) show what the server computes, or the form as you type
  const cols = lineColumns(child);
  const totalCol = totalColumn(cols);
  const cls = (n: string, f: EntitySchema['fields'][string]) => [colClass(f), n === totalCol ? 'bo-line-total' : ''].filter(Boolean).join(' ') || undefined;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length >= VIRTUAL_FROM;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8, enabled: virtual });
  const items = virtual ? virtualizer.getVirtualItems().map((v) => v.index) : rows.map((_, i) => i);
  const padTop = virtual ? virtualizer.getVirtualItems()[0]?.start ?? 0 : 0;
  const padBottom = virtual ? virtualizer.getTotalSize() - (virtualizer.getVirtualItems().at(-1)?.end ?? 0) : 0;
  // a line added by the person (button, or Enter on the last line's last field): the focus goes to its first field (สินค้า)
  const rootRef = useRef<HTMLDivElement>(null);
  const focusNew = useRef(false);
  useEffect(() => {
    if (!focusNew.current) return;
    focusNew.current = false;
    const last = [...(rootRef.current?.querySelectorAll<HTMLElement>('[data-line-row]') ?? [])].at(-1);
    last?.querySelector<HTMLElement>('input:not([disabled]), select, textarea')?.focus();
  }, [rows.length]);
  const addLine = () => { focusNew.current = true; append(defaultValues(child) as never); if (virtual) virtualizer.scrollToIndex(rows.length); };

  return (
    <div className="bo-lines" role="group" aria-label={label} ref={rootRef} data-lines-grid={name}>
      <div className={`bo-table-wrap ${virtual ? 'bo-lines-virtual' : ''}`} ref={scrollRef}>
        <table className="bo-table bo-lines-table">
          <thead>
            <tr>
              <th scope="col" className="bo-line-no">{t('form.line_no')}</th>
              {cols.map(([n, f]) => <th key={n} scope="col" className={cls(n, f)} style={headStyle(f)}>{loc(f.label, lang)}{f.required && <span className="bo-required" aria-hidden="true"> *</span>}</th>)}
              <th scope="col" className="bo-line-actions"><span className="bo-sr-only">{t('form.remove_line')}</span></th>
            </tr>
          </thead>
          <tbody>
            {padTop > 0 && <tr style={{ height: padTop }} aria-hidden="true" />}
            {items.map((i) => {
              const row = rows[i]!;
              return (
                <tr key={row._key} data-line-row={i}>
                  <td className="bo-line-no">{i + 1}</td>
                  {cols.map(([n, f]) => {
                    const err = errorAt(errors, [name, String(i), n]);
                    const id = `${name}-${i}-${n}`;
                    return (
                      // data-label: the column's name, shown beside the control when a line is a card (a phone)
                      <td key={n} className={cls(n, f)} style={cellStyle(f)} data-label={loc(f.label, lang)}>
                        <FieldWidget name={`${name}.${i}.${n}`} field={f} control={control} related={related} lang={lang} id={id}
                          labelFields={f.type === 'link' ? productLabelFields(pickerSetting, n, siteSettings, lang) ?? undefined : undefined}
                          invalid={!!err} ariaLabel={`${loc(f.label, lang)} ${i + 1}`} describedBy={err ? `${id}-error` : undefined} compact disabled={disabled} />
                        {err && <small id={`${id}-error`} className="p-error bo-field-error">{err}</small>}
                      </td>
                    );
                  })}
                  <td className="bo-line-actions">
                    {!disabled && <Button type="button" icon="pi pi-trash" text rounded severity="danger" aria-label={`${t('form.remove_line')} ${i + 1}`} onClick={() => remove(i)} />}
                  </td>
                </tr>
              );
            })}
            {padBottom > 0 && <tr style={{ height: padBottom }} aria-hidden="true" />}
            {rows.length === 0 && <tr><td colSpan={cols.length + 2} className="bo-empty">{t('form.no_lines')}</td></tr>}
          </tbody>
        </table>
      </div>
      {balance && <LinesBalance name={name} control={control} balance={balance} />}
      {errorAt(errors, [name]) && <small className="p-error">{errorAt(errors, [name])}</small>}
      {!disabled && <Button type="button" icon="pi pi-plus" label={t('form.add_line')} size="small" outlined onClick={addLine} className="bo-add-line" data-add-line="" />}
    </div>
  );
}
