import type { ReportDef } from '../../engine/reports/report-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { compileFilter } from '../crud/filter-compiler.ts';
import { branchText } from '../../engine/documents/branch-text.ts';

type ParamValues = Record<string, unknown>;
type Line = { label: string; value: string };

const WORDS = {
  th: { operator: 'ชื่อผู้ประกอบการ', taxId: 'เลขประจำตัวผู้เสียภาษีอากร', place: 'สถานประกอบการ', all: 'ทุกบริษัท: เลือกบริษัทเพื่อพิมพ์รายงานของผู้ประกอบการรายเดียว' },
  en: { operator: 'Operator', taxId: 'Tax ID', place: 'Establishment', all: 'All companies: choose a company to print one operator\'s report' },
};

/**
 * The lines that head a printed tax report with its operator (`operator` in the report file): the Revenue
 * Department's sales and purchase tax reports name the operator, its tax id and its head office or branch.
 * Without a company chosen, the only company is the operator; with several, the header says the report
 * covers them all, since one report filed for several tax ids would be wrong. Read within the caller's row
 * scope: a user limited to some companies never reads another's name or tax id here.
 */
export async function operatorLines(service: EntityService, def: ReportDef, params: ParamValues, ctx: RequestContext, lang: 'th' | 'en'): Promise<Line[]> {
  const param = def.operator ? def.parameters.find((p) => p.name === def.operator) : undefined;
  const entity = param?.entity ? service.registry.get(param.entity) : undefined;
  if (!param || !entity) return [];
  const w = WORDS[lang];
  const scope = service.policy.rowFilter(ctx, entity);
  const cc = { adapter: service.db.adapter, entity: (n: string) => service.registry.get(n), scope: (e: EntitySchema) => service.policy.rowFilter(ctx, e) };
  const rows = () => service.db.kysely.selectFrom(`${entity.name} as t`).$if(scope !== null, (q) => q.where((eb) => compileFilter(eb as never, scope!, entity, 't', cc)));
  let id = params[param.name] === null || params[param.name] === undefined ? null : Number(params[param.name]);
  if (id === null) {
    const ids = await rows().select('t.id').limit(2).execute();
    if (ids.length !== 1) return [{ label: w.operator, value: w.all }];
    id = Number(ids[0]!.id);
  }
  const cols = ['name_th', 'name_en', 'name', 'tax_id', 'branch_code', 'branch_name'].filter((c) => entity.fields[c]);
  const row = await rows().select(cols.map((c) => `t.${c}`)).where('t.id', '=', id).executeTakeFirst() as Record<string, unknown> | undefined;
  if (!row) return [];
  const name = (lang === 'en' ? row.name_en : null) ?? row.name_th ?? row.name;
  const place = branchText(row.branch_code, row.branch_name, lang);
  return [
    { label: w.operator, value: String(name ?? '') },
    ...(row.tax_id ? [{ label: w.taxId, value: String(row.tax_id) }] : []),
    ...(place ? [{ label: w.place, value: place }] : []),
  ];
}
