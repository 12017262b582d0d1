import type { EntitySchema, FieldDef } from '../../../../engine/schema/schema-types.ts';

/** The columns of a lines grid: the line's fields but hidden ones (a source line's id, its source's schema name) and the link to the document. */
export function lineColumns(child: EntitySchema): Array<[string, FieldDef]> {
  const parentField = child.parent?.field;
  return Object.entries(child.fields).filter(([n, f]) => !f.hidden && f.type !== 'lines' && n !== parentField);
}

/**
 * The line's amount, a money column that ends the line, which sticks to the right edge (at 1366 px with the menu open it
 * was off-screen); so a line schema keeps its amount last (a rounding column after it took its place: issue 52 §6).
 */
export function totalColumn(cols: Array<[string, FieldDef]>): string | undefined {
  const last = cols.at(-1);
  return last?.[1].type === 'money' ? last[0] : undefined;
}
