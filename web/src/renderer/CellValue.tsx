import type { FieldDef } from '../../../engine/schema/schema-types.ts';
import { formatCell } from './format-value.ts';

/** A list cell: enum values as colour chips, booleans as icons, numbers right-aligned. */
export function CellValue({ field, value, lang }: { field: FieldDef; value: unknown; lang: string }) {
  if (field.type === 'enum' && value !== null && value !== undefined) {
    const o = field.options?.find((x) => x.value === value);
    return <span className="bo-chip" style={o?.color ? { background: `${o.color}22`, color: o.color, borderColor: `${o.color}66` } : undefined}>{formatCell(field, value, lang)}</span>;
  }
  if (field.type === 'boolean') {
    return value ? <i className="pi pi-check-circle bo-true" aria-label="✓" /> : <i className="pi pi-minus bo-false" aria-label="—" />;
  }
  if (field.type === 'color' && typeof value === 'string') {
    return <span className="bo-color-cell"><span className="bo-swatch" style={{ background: value }} />{value}</span>;
  }
  const text = formatCell(field, value, lang);
  if (field.type === 'money' || field.type === 'decimal' || field.type === 'integer') return <span className="num">{text}</span>;
  return <>{text}</>;
}
