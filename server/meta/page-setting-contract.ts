import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { hiddenIn } from '../../engine/schema/schema-overlay.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The API contract names page settings as `{ fields: { name: { label,
 * hidden: "list"|"form"|"both"|false, required, readOnly, default, order,
 * width } }, list: { columns, sort, pageSize }, form: { sections } }`; the
 * editor speaks `{ fields, page }` with the override names. Both are accepted:
 * this turns the contract's words into the editor's before the rules judge them.
 * A field's `order` places it: fields with an order come first, by it; the
 * others follow in the file's order.
 */
export function fromContract(file: EntitySchema, raw: unknown): unknown {
  if (!isObj(raw) || (!('list' in raw) && !('form' in raw) && !hasContractFieldWords(raw.fields))) return raw;
  const { list, form, fields, page, ...rest } = raw;
  const outPage: Obj = isObj(page) ? { ...page } : {};
  const outFields: Obj = {};
  const orders: [string, number][] = [];
  for (const [name, props] of Object.entries(isObj(fields) ? fields : {})) {
    if (!isObj(props)) { outFields[name] = props; continue; }
    const { order, hidden, ...others } = props;
    const p: Obj = { ...others };
    if (hidden !== undefined) p.hidden = hidden === false ? 'none' : hidden === true ? 'both' : hidden;
    if (typeof order === 'number' && Number.isFinite(order)) orders.push([name, order]);
    else if (order !== undefined && order !== null) p.order = order; // left for the rules to name as unknown
    outFields[name] = p;
  }
  if (orders.length && outPage.fieldOrder === undefined) {
    const fileOrder = Object.keys(file.fields);
    const placed = orders.sort((a, b) => a[1] - b[1]).map(([n]) => n);
    outPage.fieldOrder = [...placed, ...fileOrder.filter((n) => !placed.includes(n))];
  }
  if (isObj(list)) {
    const { columns, sort, pageSize, ...unknown } = list;
    if (columns !== undefined) outPage.listColumns = columns;
    if (sort !== undefined) outPage.defaultSort = sort;
    if (pageSize !== undefined) outPage.pageSize = pageSize;
    for (const [k, v] of Object.entries(unknown)) outPage[`list.${k}`] = v;
  } else if (list !== undefined) outPage.list = list;
  if (isObj(form)) {
    const { sections, ...unknown } = form;
    if (sections !== undefined) outPage.formSections = sections;
    for (const [k, v] of Object.entries(unknown)) outPage[`form.${k}`] = v;
  } else if (form !== undefined) outPage.form = form;
  return { ...rest, fields: outFields, page: outPage };
}

function hasContractFieldWords(fields: unknown): boolean {
  if (!isObj(fields)) return false;
  return Object.values(fields).some((p) => isObj(p) && (p.order !== undefined || typeof p.hidden === 'boolean'));
}

/** The merged page in the contract's words, as GET /api/page_setting/{entity} also answers it (`settings`). */
export function toContract(merged: EntitySchema): Obj {
  const names = Object.keys(merged.fields);
  const fields: Obj = {};
  names.forEach((name, i) => {
    const f = merged.fields[name]!;
    const hidden = hiddenIn(f);
    fields[name] = {
      label: f.label, hidden: hidden === 'none' ? false : hidden, required: !!f.required, readOnly: !!f.readOnly,
      default: f.default ?? null, order: i + 1, width: f.width ?? null,
    };
  });
  return {
    fields,
    list: { columns: merged.list?.columns ?? null, sort: merged.defaultSort ?? null, pageSize: merged.list?.pageSize ?? null },
    form: { sections: merged.form?.sections ?? [] },
  };
}
