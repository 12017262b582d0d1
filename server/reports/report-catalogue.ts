import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { loadReportSet } from '../../engine/reports/report-loader.ts';
import type { ReportDef, ReportSummary } from '../../engine/reports/report-types.ts';

/** Reads every *.json of a reports folder (schemas/reports); a bad file throws SchemaLoadError naming file, pointer and reason. */
export function readReportDir(dir: string, registry: SchemaRegistry): ReportDef[] {
  if (!existsSync(dir)) return [];
  const sources = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ file: join(dir, f), text: readFileSync(join(dir, f), 'utf8') }));
  return loadReportSet(sources, (n) => registry.get(n));
}

export const menuKeyOf = (def: ReportDef): string => def.menuKey ?? def.name;

export function summaryOf(def: ReportDef): ReportSummary {
  return {
    name: def.name, label: def.label, parameters: def.parameters, menuKey: menuKeyOf(def), menuGroup: def.menuGroup,
    routeParam: def.routeParam ?? null, chart: def.chart ?? null, textExports: def.textExports ?? [],
    columns: def.columns.filter((c) => !c.hidden).map((c) => ({ key: c.key, label: c.label, type: c.type, ...(c.link ? { link: c.link } : {}), ...(c.options ? { options: c.options } : {}) })),
    totals: def.totals ?? [],
  };
}

/** The reports the server answers, by name. */
export class ReportCatalogue {
  private readonly byName: Map<string, ReportDef>;
  constructor(defs: ReportDef[]) { this.byName = new Map(defs.map((d) => [d.name, d])); }
  get(name: string): ReportDef | undefined { return this.byName.get(name); }
  all(): ReportDef[] { return [...this.byName.values()]; }
}
