import type { EntitySchema, FieldDef } from '../../../engine/schema/schema-types.ts';
import { formatIsoDate, formatIsoDateTime } from '../core/thai-dates.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(scale: number, least = scale): Intl.NumberFormat {
  const key = `${least}:${scale}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: least, maximumFractionDigits: scale });
    numberFormats.set(key, f);
  }
  return f;
}

/** Money, decimals and whole numbers: right-aligned in every table and detail card, so digits line up. */
export function isNumeric(field: FieldDef | undefined): boolean {
  return !!field && (field.type === 'money' || field.type === 'decimal' || field.type === 'integer');
}

export function fieldScale(field: FieldDef): number {
  return field.type === 'money' ? 2 : field.type === 'decimal' ? field.scale ?? 0 : 0;
}

/** The decimals always written: money keeps its two; a quantity shows its real ones ("100", "2.5", not "100.0000"). */
export function leastDecimals(field: FieldDef): number {
  return field.type === 'money' ? fieldScale(field) : 0;
}


/** A value as text for a list cell or a read-only view. */
export function formatCell(field: FieldDef | undefined, value: unknown, lang: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (!field) return String(value);
  switch (field.type) {
    case 'boolean': return value ? '✓' : '';
    case 'money': case 'decimal': case 'integer':
    {
      // the server may answer a decimal as its exact text ("100.0000"): read it as the number it is
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : null;
      return n === null ? String(value) : numberFormat(fieldScale(field), leastDecimals(field)).format(n);
    }
    case 'enum': {
      const o = field.options?.find((x) => x.value === value);
      return o ? (lang === 'en' ? o.label.en : o.label.th) : String(value);
    }
    // one presentation everywhere (core/thai-dates): Buddhist-era years in Thai, Bangkok time
    case 'date': return formatIsoDate(String(value), lang);
    case 'datetime': return formatIsoDateTime(String(value), lang);
    case 'json': return JSON.stringify(value);
    default: return String(value);
  }
}

/** The field of a link target to show: the link's displayField, else the target's titleField. */
export function displayFieldOf(field: FieldDef, target: EntitySchema | undefined): string {
  return field.displayField ?? target?.titleField ?? 'id';
}
