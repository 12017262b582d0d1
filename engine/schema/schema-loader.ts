import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import metaSchema from './entity.meta-schema.json' with { type: 'json' };
import type { EntitySchema, Workflow } from './schema-types.ts';
import type { DocumentSource } from './document-spec-types.ts';
import { HOLDINGS } from './held-entities.ts';
import { SYSTEM_FIELDS, companySetting, siteSettingsOf, enablingSettings, fieldOf, hasColumn, linkFilterParent, linkFilterSource } from './schema-types.ts';
import { parseFilter, FilterError } from '../filter/filter-parser.ts';
import { fieldTokens } from '../documents/numbering-format.ts';
import { checkStockKeys } from './stock-keys-check.ts';
import { checkJournalKeys } from './journal-keys-check.ts';
import { checkFormKeys } from './form-keys-check.ts';
import { checkSiteRuleKeys } from './site-rule-keys-check.ts';
import { searchFieldProblem } from './search-paths.ts';
import { checkFillKeys } from './fill-checks.ts';

export interface SchemaSource {
  /** A name a person can find: the path of the file relative to the schemas folder. */
  file: string;
  text: string;
}

export interface SchemaProblem {
  file: string;
  /** JSON pointer into the file, e.g. /fields/tax_id/type */
  pointer: string;
  reason: string;
}

export class SchemaLoadError extends Error {
  constructor(readonly problems: SchemaProblem[]) {
    super(`Schema files are not valid:\n${problems.map((p) => `  ${p.file} ${p.pointer || '/'}: ${p.reason}`).join('\n')}`);
  }
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addFormat('regex', { validate: (s: string) => { try { new RegExp(s, 'u'); return true; } catch { return false; } } });
const checkMeta = ajv.compile(metaSchema);

function describe(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'enum') return `${e.message}: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  return e.message ?? e.keyword;
}

/** Keeps the most useful ajv errors: oneOf/if wrappers repeat what their branches said. */
function metaProblems(file: string, errors: ErrorObject[]): SchemaProblem[] {
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'oneOf') continue;
    const p = { file, pointer: e.instancePath, reason: describe(e) };
    const key = `${p.pointer}|${p.reason}`;
    if (!seen.has(key)) { seen.add(key); out.push(p); }
  }
  return out;
}

function parseJson(source: SchemaSource): { value?: unknown; problem?: SchemaProblem } {
  try {
    return { value: JSON.parse(source.text) };
  } catch (err) {
    return { problem: { file: source.file, pointer: '', reason: `not valid JSON: ${(err as Error).message}` } };
  }
}

/** Checks that names used inside one entity, and links between entities, point at something real. */
function crossCheck(file: string, e: EntitySchema, byName: Map<string, EntitySchema>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const bad = (pointer: string, reason: string) => out.push({ file, pointer, reason });
  const fieldNames = new Set(Object.keys(e.fields));
  const known = (f: string) => fieldNames.has(f) || (SYSTEM_FIELDS as readonly string[]).includes(f) || f === e.parent?.field || (e.kind === 'lines' && f === 'line_no');
  const expectedName = file.replace(/^.*\//, '').replace(/\.json$/, '');
  if (e.name !== expectedName) bad('/name', `must match the file name "${expectedName}"`);
  for (const sys of [...SYSTEM_FIELDS, 'is_deleted', 'line_no']) {
    if (fieldNames.has(sys)) bad(`/fields/${sys}`, `"${sys}" is a system column and cannot be declared`);
  }
  if (!fieldNames.has(e.titleField)) bad('/titleField', `"${e.titleField}" is not a field`);
  e.searchFields?.forEach((f, i) => { const why = searchFieldProblem(e, f, byName); if (why) bad(`/searchFields/${i}`, why); });
  e.defaultSort?.split(',').forEach((s) => { const f = s.replace(/^-/, ''); if (!known(f)) bad('/defaultSort', `"${f}" is not a field`); });
  e.list?.columns.forEach((c, i) => { if (!known(c.split('.')[0]!)) bad(`/list/columns/${i}`, `"${c}" is not a field`); });
  e.list?.filters?.forEach((c, i) => { if (!known(c.split('.')[0]!)) bad(`/list/filters/${i}`, `"${c}" is not a field`); });
  e.form?.sections.forEach((s, si) => s.fields.forEach((f, fi) => { if (!fieldNames.has(f)) bad(`/form/sections/${si}/fields/${fi}`, `"${f}" is not a field`); }));
  e.indexes?.forEach((ix, ii) => ix.fields.forEach((f, fi) => { if (!known(f)) bad(`/indexes/${ii}/fields/${fi}`, `"${f}" is not a field`); }));
  e.indexes?.forEach((ix, ii) => {
    if (ix.live && !(ix.unique && e.workflow?.states.some((st) => st.final))) bad(`/indexes/${ii}/live`, 'a live index is unique, on an entity whose workflow has a final state');
  });
  if (e.kind === 'lines' && !e.parent) bad('/parent', 'an entity of kind "lines" needs a parent {entity, field}');
  if (e.parent) {
    if (!byName.has(e.parent.entity)) bad('/parent/entity', `unknown entity "${e.parent.entity}"`);
    if (fieldNames.has(e.parent.field)) bad('/parent/field', `"${e.parent.field}" is created from parent and must not also be declared as a field`);
  }
  // lines print inside their document: they may say how (print.references), and only that
  if (e.print && e.kind !== 'document' && !(e.kind === 'lines' && Object.keys(e.print).every((k) => k === 'references'))) bad('/print', 'only entities of kind "document" are printed (lines may only give print.references)');
  e.print?.references?.replaces.forEach((f, i) => { if (!fieldNames.has(f)) bad(`/print/references/replaces/${i}`, `"${f}" is not a field`); });
  e.print?.payment?.forEach((f, i) => { if (!fieldNames.has(f)) bad(`/print/payment/${i}`, `"${f}" is not a field`); });
  for (const key of ['numbering', 'workflow'] as const) {
    const f = e[key]?.field;
    if (f && !fieldNames.has(f)) bad(`/${key}/field`, `"${f}" is not a field`);
  }
  if (e.numbering) checkNumbering(e, byName, bad);
  e.related?.forEach((r, i) => {
    const target = byName.get(r.entity);
    if (!target) bad(`/related/${i}/entity`, `unknown entity "${r.entity}"`);
    else if (fieldOf(target, r.field)?.type !== 'link' || fieldOf(target, r.field)?.entity !== e.name) bad(`/related/${i}/field`, `"${r.field}" of ${r.entity} is not a link to ${e.name}`);
  });
  e.listAliases?.forEach((a, i) => {
    if (a.deletedParam && !e.softDelete) bad(`/listAliases/${i}/deletedParam`, 'the entity has no soft delete');
    a.params?.forEach((p, j) => { if (!fieldNames.has(p.field)) bad(`/listAliases/${i}/params/${j}/field`, `"${p.field}" is not a field`); });
  });
  if (e.workflow) checkWorkflow(e.workflow, fieldNames, bad);
  if (e.document) checkDocument(e, byName, bad);
  checkStockKeys(e, byName, bad);
  checkJournalKeys(e, byName, bad);
  checkFormKeys(e, byName, bad);
  // site-setting keys name fields of the site settings (checked when the set has them: a test may load a few schemas)
  const site = siteSettingsOf(byName);
  checkSiteRuleKeys(e, byName, site, bad);
  checkFillKeys(e, byName, bad);
  const { customerWritable, customerStates, ...keyFields } = e.access ?? {};
  // "id" marks the entity that is itself the access key (inventory, your_company, customer)
  for (const [k, f] of Object.entries(keyFields)) if (f !== 'id' && !fieldNames.has(f)) bad(`/access/${k}`, `"${f}" is not a field`);
  customerWritable?.forEach((f, i) => { if (!fieldNames.has(f)) bad(`/access/customerWritable/${i}`, `"${f}" is not a field`); });
  if (customerStates) {
    const states = new Set((e.workflow?.states ?? []).map((st) => st.value));
    if (!e.workflow) bad('/access/customerStates', 'needs a workflow: the states are its states');
    else customerStates.forEach((v, i) => { if (!states.has(v)) bad(`/access/customerStates/${i}`, `"${v}" is not a state of the workflow`); });
  }
  for (const [name, f] of Object.entries(e.fields)) {
    const at = `/fields/${name}`;
    if (f.type === 'link' || f.type === 'lines') {
      const target = byName.get(f.entity!);
      if (!target) { bad(`${at}/entity`, `unknown entity "${f.entity}"`); continue; }
      if (f.type === 'lines' && (target.kind !== 'lines' || target.parent?.entity !== e.name)) {
        bad(`${at}/entity`, `"${f.entity}" must be of kind "lines" with parent.entity "${e.name}"`);
      }
      if (f.displayField && !fieldOf(target, f.displayField)) bad(`${at}/displayField`, `"${f.displayField}" is not a field of ${target.name}`);
    }
    if (f.type === 'lines' && (f.unique || f.indexed)) bad(at, 'a lines field has no column to index');
    if (f.onCancel && !(f.type === 'link' && byName.get(f.entity!)?.workflow)) bad(`${at}/onCancel`, 'only a link to an entity with a workflow holds it against its cancel');
    if (f.colorField) {
      const target = f.type === 'link' ? byName.get(f.entity!) : undefined;
      if (!target || !fieldOf(target, f.colorField)) bad(`${at}/colorField`, `"${f.colorField}" is not a field of the linked entity`);
    }
    if (f.fillFrom) {
      const link = fieldOf(e, f.fillFrom.link);
      const target = link?.type === 'link' ? byName.get(link.entity!) : undefined;
      if (!target) bad(`${at}/fillFrom/link`, `"${f.fillFrom.link}" is not a link field of ${e.name}`);
      else if (!fieldOf(target, f.fillFrom.field)) bad(`${at}/fillFrom/field`, `"${f.fillFrom.field}" is not a field of ${target.name}`);
    }
    if (f.linkFilter) {
      const target = f.type === 'link' ? byName.get(f.entity!) : undefined;
      if (f.type !== 'link') bad(`${at}/linkFilter`, 'only a link field can filter its choices');
      for (const [key, v] of Object.entries(f.linkFilter)) {
        const tf = target ? fieldOf(target, key) : undefined;
        if (target && (!tf || !hasColumn(tf))) bad(`${at}/linkFilter/${key}`, `"${key}" is not a field of ${target.name}`);
        const src = linkFilterSource(v);
        const up = linkFilterParent(v);
        if (up !== null) {
          const parent = e.kind === 'lines' && e.parent ? byName.get(e.parent.entity) : undefined;
          const pf = parent ? fieldOf(parent, up) : undefined;
          if (!parent) bad(`${at}/linkFilter/${key}`, '"$parent.<field>" is for lines only');
          else if (!pf || !hasColumn(pf)) bad(`${at}/linkFilter/${key}`, `"${up}" is not a field of ${parent.name}`);
          else if (tf?.type === 'link' && (pf.type !== 'link' || pf.entity !== tf.entity)) bad(`${at}/linkFilter/${key}`, `"${key}" links to ${tf.entity} but "${up}" does not`);
          continue;
        }
        if (Array.isArray(v) && v.some((x) => typeof x === 'string' && x.startsWith('$'))) bad(`${at}/linkFilter/${key}`, 'a list holds constants, not references');
        if (Array.isArray(v) && tf?.type === 'link') bad(`${at}/linkFilter/${key}`, 'a list of constants is for value fields, not links');
        if (typeof v === 'string' && v.startsWith('$') && src === null) bad(`${at}/linkFilter/${key}`, 'a reference is written "$form.<field>" or, on a line, "$parent.<field>"');
        if (src === null) continue;
        const sf = fieldOf(e, src);
        if (!sf || !hasColumn(sf)) bad(`${at}/linkFilter/${key}`, `"${src}" is not a field of ${e.name}`);
        else if (src === name) bad(`${at}/linkFilter/${key}`, 'a link cannot filter on itself');
        else if (tf && (tf.type === 'link') !== (sf.type === 'link')) bad(`${at}/linkFilter/${key}`, `"${key}" and "${src}" must both be links or both be values`);
        else if (tf?.type === 'link' && sf.type === 'link' && tf.entity !== sf.entity) bad(`${at}/linkFilter/${key}`, `"${key}" links to ${tf.entity} but "${src}" links to ${sf.entity}`);
      }
    }
    if (f.options && f.default !== undefined && !f.options.some((o) => o.value === f.default)) bad(`${at}/default`, 'is not one of the options');
    for (const setting of enablingSettings(f)) if (site && site.fields[setting]?.type !== 'boolean') bad(`${at}/enabledBy`, `"${setting}" is not a boolean field of ${site.name}`);
    if (site && f.defaultSetting && !site.fields[f.defaultSetting]) bad(`${at}/defaultSetting`, `"${f.defaultSetting}" is not a field of ${site.name}`);
    if (f.defaultFrom === 'company') {
      const target = f.type === 'link' ? byName.get(f.entity!) : undefined;
      if (!target || target.access?.companyField !== 'id') bad(`${at}/defaultFrom`, 'must be on a link to the company entity (access.companyField "id")');
      else if (site && !companySetting(site, target.name)) bad(`${at}/defaultFrom`, `${site.name} has no link field to ${target.name} (the default company)`);
    }
    if (f.claimWindow && (f.type !== 'date' || e.fields[f.claimWindow.recordedOn]?.type !== 'date')) bad(`${at}/claimWindow`, 'must be on a date field and name another date field of the entity (recordedOn)');
    for (const cond of ['visibleIf', 'requiredIf'] as const) {
      if (!f[cond]) continue;
      try {
        parseFilter(f[cond], e, { entity: (n) => byName.get(n) });
      } catch (err) {
        if (err instanceof FilterError) bad(`${at}/${cond}`, `${err.message} (${err.path})`);
        else throw err;
      }
    }
    if (!hasColumn(f) && f.required) bad(`${at}/required`, 'lines cannot be required; use a minimum in the document workflow');
  }
  return out;
}

/**
 * Parses and checks a set of schema files. Throws SchemaLoadError naming
 * every problem by file, JSON pointer and reason, so one run shows them all.
 */
export function loadSchemaSet(sources: SchemaSource[]): EntitySchema[] {
  const problems: SchemaProblem[] = [];
  const parsed: { file: string; entity: EntitySchema }[] = [];
  for (const source of sources) {
    const { value, problem } = parseJson(source);
    if (problem) { problems.push(problem); continue; }
    if (!checkMeta(value)) { problems.push(...metaProblems(source.file, checkMeta.errors ?? [])); continue; }
    parsed.push({ file: source.file, entity: value as unknown as EntitySchema });
  }
  const byName = new Map<string, EntitySchema>();
  for (const { file, entity } of parsed) {
    if (byName.has(entity.name)) problems.push({ file, pointer: '/name', reason: `entity "${entity.name}" is defined twice` });
    byName.set(entity.name, entity);
  }
  const sites = parsed.filter((p) => p.entity.siteSettings);
  for (const { file, entity } of sites.slice(1)) problems.push({ file, pointer: '/siteSettings', reason: `only one entity holds the site settings ("${sites[0]!.entity.name}" does)` });
  for (const { file, entity } of parsed) {
    if (entity.siteSettings && entity.kind !== 'singleton') problems.push({ file, pointer: '/siteSettings', reason: 'only an entity of kind "singleton" holds the site settings' });
  }
  problems.push(...holdingProblems(parsed));
  for (const { file, entity } of parsed) problems.push(...crossCheck(file, entity, byName));
  if (problems.length) throw new SchemaLoadError(problems);
  return parsed.map((p) => p.entity);
}

/** At most one entity holds each thing (`holds`), and it has the links the engine finds the entities around it by. */
function holdingProblems(parsed: { file: string; entity: EntitySchema }[]): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const first = new Map<string, string>();
  for (const { file, entity } of parsed) {
    if (!entity.holds) continue;
    const other = first.get(entity.holds);
    if (other) problems.push({ file, pointer: '/holds', reason: `only one entity holds "${entity.holds}" ("${other}" does)` });
    else first.set(entity.holds, entity.name);
    for (const field of HOLDINGS[entity.holds]) {
      if (fieldOf(entity, field)?.type !== 'link') problems.push({ file, pointer: '/holds', reason: `an entity that holds "${entity.holds}" has a link field "${field}"` });
    }
    if (entity.holds === 'productAttributes' && entity.kind !== 'lines') problems.push({ file, pointer: '/holds', reason: 'the product attribute values are lines of the product (kind "lines")' });
  }
  return problems;
}

/** States and transitions name each other and the entity's fields consistently. */
function checkWorkflow(w: Workflow, fieldNames: Set<string>, bad: (at: string, why: string) => void): void {
  const states = new Set(w.states.map((s) => s.value));
  if (!states.has(w.initial)) bad('/workflow/initial', 'is not one of the states');
  w.states.forEach((s, si) => s.editable?.forEach((f, fi) => { if (!fieldNames.has(f)) bad(`/workflow/states/${si}/editable/${fi}`, `"${f}" is not a field`); }));
  const actions = new Set<string>();
  w.transitions.forEach((t, ti) => {
    if (actions.has(t.action)) bad(`/workflow/transitions/${ti}/action`, `"${t.action}" is declared twice`);
    actions.add(t.action);
    if (!states.has(t.to)) bad(`/workflow/transitions/${ti}/to`, `"${t.to}" is not one of the states`);
    t.from.forEach((f, fi) => { if (!states.has(f)) bad(`/workflow/transitions/${ti}/from/${fi}`, `"${f}" is not one of the states`); });
    t.fields?.forEach((f, fi) => { if (!fieldNames.has(f)) bad(`/workflow/transitions/${ti}/fields/${fi}`, `"${f}" is not a field`); });
  });
}

/** A document's lines field, actions and sources fit the conventions the document engine relies on. */
/**
 * A series split by fields (`per`) must name them in its numbers when the numbers are unique: two companies'
 * first invoices would otherwise both be IV202611-0001. Field tokens name fields (or a link's target's fields).
 */
function checkNumbering(e: EntitySchema, byName: Map<string, EntitySchema>, bad: (at: string, why: string) => void): void {
  const n = e.numbering!;
  const tokens = fieldTokens(n.pattern);
  for (const t of tokens) {
    const [first, sub] = t.split('.') as [string, string | undefined];
    const f = fieldOf(e, first);
    if (!f) bad('/numbering/pattern', `{${t}}: "${first}" is not a field`);
    else if (sub && (f.type !== 'link' || !byName.get(f.entity!) || !fieldOf(byName.get(f.entity!)!, sub))) bad('/numbering/pattern', `{${t}}: "${first}" is not a link to a record with a field "${sub}"`);
  }
  n.per?.forEach((p, i) => {
    if (!fieldOf(e, p)) bad(`/numbering/per/${i}`, `"${p}" is not a field`);
    else if (fieldOf(e, n.field)?.unique && !tokens.some((t) => t.split('.')[0] === p)) bad(`/numbering/per/${i}`, `the numbers are unique, so the pattern must name "${p}" ({${p}} or {${p}.code}): another series would draw the same numbers`);
  });
  if (n.dateField && fieldOf(e, n.dateField)?.type !== 'date') bad('/numbering/dateField', `"${n.dateField}" is not a date field`);
  if (n.dateRule && (!n.dateField || n.assignOn !== 'post')) bad('/numbering/dateRule', 'a date rule needs "dateField" and "assignOn": "post" (the date is judged when the number is drawn)');
}

function checkDocument(e: EntitySchema, byName: Map<string, EntitySchema>, bad: (at: string, why: string) => void): void {
  const d = e.document!;
  if (e.kind !== 'document') bad('/document', 'only entities of kind "document" have document behaviour');
  if (!e.workflow) bad('/document', 'a document needs a workflow (posting and cancelling are its actions)');
  if (d.lines === undefined) {
    // a document without lines (a withholding certificate) still posts: numbering on posting, locked states
    if (d.amounts || d.from?.length) bad('/document/lines', 'computed amounts and "from" need a lines field');
    return;
  }
  // e-Tax (server/etax): the fields it names exist, so a typo fails at start rather than exporting without them
  if (d.etax?.purposeField && !fieldOf(e, d.etax.purposeField)) bad('/document/etax/purposeField', `"${d.etax.purposeField}" is not a field of ${e.name}`);
  for (const name of Object.keys(d.etax?.notWhen ?? {})) if (!fieldOf(e, name)) bad(`/document/etax/notWhen/${name}`, `"${name}" is not a field of ${e.name}`);
  d.etax?.typeCodeWhen?.forEach((w, i) => {
    for (const name of Object.keys('when' in w ? w.when : {})) if (!fieldOf(e, name)) bad(`/document/etax/typeCodeWhen/${i}/when/${name}`, `"${name}" is not a field of ${e.name}`);
  });
  const ti = d.taxInvoice;
  if (ti?.formField && fieldOf(e, ti.formField)?.type !== 'enum') bad('/document/taxInvoice/formField', `"${ti.formField}" must be an enum field of ${e.name}`);
  for (const k of ['name', 'address'] as const) if (ti?.shipTo && !fieldOf(e, ti.shipTo[k])) bad(`/document/taxInvoice/shipTo/${k}`, `"${ti.shipTo[k]}" is not a field of ${e.name}`);
  if (ti?.shipTo && fieldOf(e, 'customer_id')?.type !== 'link') bad('/document/taxInvoice/shipTo', `${e.name} needs a customer_id link to take the customer's address`);
  if (d.etax?.numberField && !fieldOf(e, d.etax.numberField)) bad('/document/etax/numberField', `"${d.etax.numberField}" is not a field of ${e.name}`);
  if (d.date !== undefined && fieldOf(e, d.date)?.type !== 'date') bad('/document/date', `"${d.date}" must be a date field of ${e.name}`);
  const lines = fieldOf(e, d.lines);
  const child = lines?.type === 'lines' ? byName.get(lines.entity!) : undefined;
  if (!child) { bad('/document/lines', `"${d.lines}" is not a lines field`); return; }
  for (const [key, action] of [['postAction', d.postAction ?? 'approve'], ['cancelAction', d.cancelAction ?? 'cancel']] as const) {
    if (e.workflow && !e.workflow.transitions.some((t) => t.action === action)) bad(`/document/${key}`, `the workflow has no action "${action}"`);
  }
  d.from?.forEach((f, i) => {
    const at = `/document/from/${i}`;
    const src = byName.get(f.source);
    if (!src?.document) { bad(`${at}/source`, `"${f.source}" is not a document entity with document behaviour`); return; }
    const srcChild = byName.get(src.document.lines ? fieldOf(src, src.document.lines)?.entity ?? '' : '');
    const states = new Set(src.workflow?.states.map((s) => s.value) ?? []);
    for (const k of ['partial', 'complete'] as const) if (f[k] !== undefined && !states.has(f[k]!)) bad(`${at}/${k}`, `"${f[k]}" is not a state of ${f.source}`);
    f.states.forEach((s, j) => { if (!states.has(s)) bad(`${at}/states/${j}`, `"${s}" is not a state of ${f.source}`); });
    f.header?.forEach((h, j) => { if (!fieldOf(e, h) || !fieldOf(src, h)) bad(`${at}/header/${j}`, `"${h}" must be a field of both ${e.name} and ${f.source}`); });
    Object.entries(f.headerDefaults ?? {}).forEach(([to, of]) => { if (!fieldOf(e, to) || !fieldOf(src, of) || fieldOf(e, to)!.type !== fieldOf(src, of)!.type) bad(`${at}/headerDefaults/${to}`, `"${to}" must be a field of ${e.name} and "${of}" one of ${f.source} of the same type`); });
    f.lineFields?.forEach((h, j) => { if (!fieldOf(child, h) || !srcChild || !fieldOf(srcChild, h)) bad(`${at}/lineFields/${j}`, `"${h}" must be a field of the lines of both documents`); });
    if (f.netPrice && fieldOf(child, f.netPrice)?.type !== 'money') bad(`${at}/netPrice`, `"${f.netPrice}" must be a money field of this document's lines`);
    if (f.netPrice && (f.measure ?? 'qty') !== 'qty') bad(`${at}/netPrice`, 'a net unit price needs a document taken by quantity');
    if (f.documentLink !== undefined) {
      const dl = fieldOf(child, f.documentLink);
      if (dl?.type !== 'link' || dl.entity !== f.source) bad(`${at}/documentLink`, `"${f.documentLink}" must be a link field of the lines of ${e.name} to ${f.source}`);
    }
    const measure = f.measure ?? 'qty';
    if (f.pool !== undefined && measure !== 'amount') bad(`${at}/pool`, 'a shared capacity is counted in money: it needs measure "amount"');
    if (!fieldOf(child, measure) || !srcChild || !fieldOf(srcChild, measure)) bad(`${at}/measure`, `"${measure}" must be a field of the lines of both documents`);
    if (!fieldOf(child, 'source_line_id')) bad(`${at}/source`, `the lines of ${e.name} need a "source_line_id" integer field to remember their source line`);
    if (f.tracks) checkTracks(f.tracks, f.complete !== undefined, src, `${at}/tracks`, bad);
  });
  const when = d.completeWhen ?? {};
  for (const [name, value] of Object.entries(when)) {
    const field = fieldOf(e, name);
    if (field?.type !== 'enum' || !field.options?.some((o) => o.value === value)) bad(`/document/completeWhen/${name}`, `"${value}" is not a value of an enum field "${name}"`);
  }
}

/** A tracked status is the engine's: a read-only enum whose default is "nothing processed yet". */
function checkTracks(t: NonNullable<DocumentSource['tracks']>, drivesWorkflow: boolean, src: EntitySchema, at: string, bad: (at: string, why: string) => void): void {
  const field = fieldOf(src, t.field);
  const values = new Set(field?.options?.map((o) => o.value) ?? []);
  if (field?.type !== 'enum' || !field.readOnly || !values.has(String(field.default))) {
    bad(`${at}/field`, `"${t.field}" must be a read-only enum field of ${src.name} whose default is one of its values`);
    return;
  }
  for (const k of ['partial', 'complete'] as const) if (!values.has(t[k])) bad(`${at}/${k}`, `"${t[k]}" is not a value of ${src.name}.${t.field}`);
  // the workflow's complete state is reached through completeWhen; without the field there it could never be
  if (drivesWorkflow && src.document?.completeWhen?.[t.field] === undefined) bad(at, `${src.name} must name "${t.field}" in its document.completeWhen`);
}
