import type { FieldDef } from '../../../engine/schema/schema-types.ts';
import { formatCell } from './format-value.ts';
import { ColorChip } from './ColorChip.tsx';
import { Thumbnail } from './Thumbnail.tsx';

/**
 * A list cell: enum values and coloured links as colour chips, booleans as
 * icons, numbers right-aligned. `color` is the link target's colorField value.
 */
export function CellValue({ field, value, lang, color }: { field: FieldDef; value: unknown; lang: string; color?: string | null }) {
  if (field.type === 'enum' && value !== null && value !== undefined && value !== '') {
    const o = field.options?.find((x) => x.value === value);
    return <ColorChip color={o?.color}>{formatCell(field, value, lang)}</ColorChip>;
  }
  if (field.type === 'link' && field.colorField && value !== null && value !== undefined && value !== '') {
    return <ColorChip color={color}>{String(value)}</ColorChip>;
  }
  if (field.type === 'image') return typeof value === 'string' && value ? <Thumbnail id={value} /> : null;
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
