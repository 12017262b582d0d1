import type { EntitySchema, FieldDef } from './schema-types.ts';

type Bad = (pointer: string, reason: string) => void;

/** The entity a header path (`customer_id.price_list_id` or `price_list_id`) ends on, when every step is a link. */
export function linkPathTarget(entity: EntitySchema, path: string, byName: ReadonlyMap<string, EntitySchema>): EntitySchema | undefined {
  let e: EntitySchema | undefined = entity;
  for (const step of path.split('.')) {
    const f: FieldDef | undefined = e?.fields[step];
    e = f?.type === 'link' ? byName.get(f.entity!) : undefined;
  }
  return e;
}

/** The loader's checks of the fill keys: `priceList`, `fillFrom.priceList` and `dateFrom`. */
export function checkFillKeys(e: EntitySchema, byName: ReadonlyMap<string, EntitySchema>, bad: Bad): void {
  if (e.priceList) {
    const lines = e.fields[e.priceList.lines];
    const child = lines?.type === 'lines' ? byName.get(lines.entity!) : undefined;
    if (!child) bad('/priceList/lines', `"${e.priceList.lines}" is not a lines field`);
    else {
      if (child.fields[e.priceList.product]?.type !== 'link') bad('/priceList/product', `"${e.priceList.product}" is not a link field of ${child.name}`);
      if (!['money', 'decimal'].includes(child.fields[e.priceList.price]?.type ?? '')) bad('/priceList/price', `"${e.priceList.price}" is not a money or decimal field of ${child.name}`);
      const mq = e.priceList.minQty;
      if (mq && !['decimal', 'integer'].includes(child.fields[mq]?.type ?? '')) bad('/priceList/minQty', `"${mq}" is not a number field of ${child.name}`);
    }
  }
  for (const [name, f] of Object.entries(e.fields)) {
    const at = `/fields/${name}`;
    const via = f.fillFrom?.priceList;
    if (via) {
      const header = e.parent ? byName.get(e.parent.entity) : undefined;
      const list = header ? linkPathTarget(header, via, byName) : undefined;
      const product = e.fields[f.fillFrom!.link];
      if (!header) bad(`${at}/fillFrom/priceList`, 'only a line (kind "lines") takes its price from its header\'s price list');
      else if (!list?.priceList) bad(`${at}/fillFrom/priceList`, `"${via}" does not lead from ${header.name} to an entity that declares priceList`);
      else {
        const lf = list.fields[list.priceList.lines];
        const child = lf?.type === 'lines' ? byName.get(lf.entity!) : undefined;
        if (child && child.fields[list.priceList.product]?.entity !== product?.entity) bad(`${at}/fillFrom/priceList`, `${list.name}'s prices are not for the entity "${f.fillFrom!.link}" links to`);
      }
    }
    if (f.dateFrom) {
      if (f.type !== 'date') bad(`${at}/dateFrom`, 'only a date field follows another date');
      if (e.fields[f.dateFrom.date]?.type !== 'date') bad(`${at}/dateFrom/date`, `"${f.dateFrom.date}" is not a date field`);
      const [head, tail] = f.dateFrom.days.split('.');
      const days = tail === undefined ? e.fields[head!] : (e.fields[head!]?.type === 'link' ? byName.get(e.fields[head!]!.entity!)?.fields[tail] : undefined);
      if (days?.type !== 'integer') bad(`${at}/dateFrom/days`, `"${f.dateFrom.days}" is not an integer field${tail === undefined ? '' : ' of the linked entity'}`);
    }
  }
}
