import { fieldOf, type EntitySchema } from './schema-types.ts';

type Bad = (at: string, why: string) => void;

/**
 * The site-setting rules of a document (`document.sourceRequiredWhen`, `uniqueLineProduct`, `autoCreate`,
 * `stock.lineInventorySetting`) name settings, line fields and documents that server/stock/site-flag-rules.ts
 * reads without knowing the document: a wrong name fails at start, not at the first save. Settings are
 * checked when the set has the site settings (`site`; a test may load a few schemas).
 */
export function checkSiteRuleKeys(e: EntitySchema, byName: Map<string, EntitySchema>, site: EntitySchema | undefined, bad: Bad): void {
  const d = e.document;
  if (!d) return;
  const lines = d.lines ? byName.get(fieldOf(e, d.lines)?.entity ?? '') : undefined;
  const boolSetting = (at: string, name: string) => {
    if (site && fieldOf(site, name)?.type !== 'boolean') bad(at, `"${name}" is not a boolean field of ${site.name}`);
  };
  const isState = (at: string, v: string) => {
    if (!e.workflow?.states.some((w) => w.value === v)) bad(at, `"${v}" is not a state of the workflow`);
  };
  const r = d.sourceRequiredWhen;
  if (r) {
    const f = site ? fieldOf(site, r.setting) : undefined;
    if (!lines || !fieldOf(lines, 'source_line_id')) bad('/document/sourceRequiredWhen', 'the lines need a "source_line_id" field (made from a source document)');
    if (site && !f) bad('/document/sourceRequiredWhen/setting', `"${r.setting}" is not a field of ${site.name}`);
    else if (f?.options && !f.options.some((o) => o.value === r.equals)) bad('/document/sourceRequiredWhen/equals', `"${r.equals}" is not an option of ${r.setting}`);
    r.states.forEach((v, i) => isState(`/document/sourceRequiredWhen/states/${i}`, v));
  }
  const u = d.uniqueLineProduct;
  if (u) {
    if (fieldOf(lines ?? { fields: {} }, u.field)?.type !== 'link') bad('/document/uniqueLineProduct/field', `"${u.field}" is not a link field of the lines`);
    boolSetting('/document/uniqueLineProduct/unlessSetting', u.unlessSetting);
  }
  const s = d.stock;
  if (s?.lineInventorySetting) {
    if (!s.lineInventory) bad('/document/stock/lineInventorySetting', 'needs "lineInventory": true');
    boolSetting('/document/stock/lineInventorySetting', s.lineInventorySetting);
  }
  d.autoCreate?.forEach((a, i) => {
    const at = `/document/autoCreate/${i}`;
    const target = byName.get(a.target);
    if (!target?.document?.from?.some((f) => f.source === e.name)) bad(`${at}/target`, `"${a.target}" is not a document made from ${e.name} (its document.from[])`);
    isState(`${at}/from`, a.from);
    isState(`${at}/to`, a.to);
    a.settings.forEach((name, j) => boolSetting(`${at}/settings/${j}`, name));
  });
}
