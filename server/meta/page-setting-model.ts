import type { EntitySchema, FieldDef, FormSection } from '../../engine/schema/schema-types.ts';
import type { LocalizedText } from '../../engine/schema/localized-text.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import {
  applyOverrides, hiddenIn, overrideProblem, OVERRIDABLE_ENTITY_PROPERTIES, OVERRIDABLE_FIELD_PROPERTIES,
  type EntityProperty, type FieldProperty, type HiddenIn, type SchemaOverride,
} from '../../engine/schema/schema-overlay.ts';
import { createAjv, createEntityValidator } from '../../engine/validation/entity-validator.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { AppError } from '../errors/app-error.ts';

export type { FieldSettings, PageSettings } from '../../engine/schema/page-setting-types.ts';
import type { FieldSettings, PageSettings } from '../../engine/schema/page-setting-types.ts';

export function fieldSettings(f: FieldDef): FieldSettings {
  return {
    label: f.label, hidden: hiddenIn(f), required: !!f.required, readOnly: !!f.readOnly, default: f.default ?? null, width: f.width ?? null,
    linkFilter: f.linkFilter ?? null, pickerColumns: f.pickerColumns ?? null,
  };
}

export function pageSettings(e: EntitySchema): PageSettings {
  return {
    label: e.label,
    listColumns: e.list?.columns ?? Object.keys(e.fields).filter((n) => e.fields[n]!.type !== 'lines' && e.fields[n]!.type !== 'json').slice(0, 6),
    fieldOrder: Object.keys(e.fields),
    defaultSort: e.defaultSort ?? null,
    pageSize: e.list?.pageSize ?? null,
    formSections: e.form?.sections ?? [],
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The documents whose lines pick a product (spec: quotation, so, do, po, gr, ipt): those whose
 * lines field names the site setting of its picker (`pickerSetting`). Their
 * product picker settings are page settings of the lines' product_id link: `linkFilter`
 * (which products it offers; the server refuses others) and `pickerColumns`.
 */
export function productPickerOf(file: EntitySchema, resolve: (n: string) => EntitySchema | undefined): { entity: string; field: string } | null {
  if (!file.document?.lines) return null;
  const lines = fieldOf(file, file.document.lines);
  if (!lines?.pickerSetting) return null;
  const child = lines?.entity ? resolve(lines.entity) : undefined;
  const link = child ? fieldOf(child, 'product_id') : undefined;
  // the lines field's pickerSetting says its product_id is a product picker: the target is whatever it links to
  return child && link?.type === 'link' ? { entity: child.name, field: 'product_id' } : null;
}

/**
 * GET /api/page_setting/{entity}: per field and for the page, the file's value,
 * the merged value and which properties an override changes, so the screen can
 * mark what differs from the schema file and reset it.
 */
export function describePage(file: EntitySchema, merged: EntitySchema, overrides: SchemaOverride[], resolve: (n: string) => EntitySchema | undefined = () => undefined) {
  const fields = Object.keys(merged.fields).map((name) => {
    const f = file.fields[name]!;
    return {
      name, type: f.type,
      ...(f.type === 'link' ? { entity: f.entity } : {}),
      ...(f.options ? { options: f.options } : {}),
      file: fieldSettings(f),
      merged: fieldSettings(merged.fields[name]!),
      overridden: overrides.filter((o) => o.field === name).map((o) => o.property),
      /** what an override may not loosen: the screen disables these */
      locked: { readOnly: !!f.readOnly, required: !!f.required && !!overrideProblem(file, { entity: file.name, field: name, property: 'required', value: false }) },
    };
  });
  // the default columns as set (the merged list also drops list-hidden fields; the editor shows those
  // as hidden, so saving the page again does not turn that into a stored column list)
  const setColumns = overrides.find((o) => o.field === null && o.property === 'listColumns');
  const fileColumns = pageSettings(file).listColumns;
  const known = (c: string) => Object.hasOwn(file.fields, c) || ['id', 'created_at', 'updated_at'].includes(c);
  const mergedPage = { ...pageSettings(merged), listColumns: setColumns ? (setColumns.value as string[]).filter(known) : fileColumns };
  return {
    entity: file.name, kind: file.kind, productPicker: productPickerOf(file, resolve),
    page: { file: pageSettings(file), merged: mergedPage, overridden: overrides.filter((o) => o.field === null).map((o) => o.property) },
    fields,
  };
}

const ajv = createAjv();

/** A default must be a value the field accepts (checked by the same validator as writes), or a dynamic default of the right type. */
function defaultProblem(entity: EntitySchema, name: string, f: FieldDef, value: unknown, resolve: (n: string) => EntitySchema | undefined): FieldError[] {
  if (value === '$NOW') return f.type === 'date' || f.type === 'datetime' ? [] : [{ field: name, code: 'page_setting', message: '$NOW is a default for dates only' }];
  if (value === '$CURRENT_USER') return f.type === 'link' && !!f.entity && resolve(f.entity)?.holds === 'userAccounts' ? [] : [{ field: name, code: 'page_setting', message: '$CURRENT_USER is a default for links to user accounts only' }];
  const probe: EntitySchema = { ...entity, numbering: undefined, workflow: undefined, fields: { [name]: { ...f, readOnly: false, required: false, requiredIf: undefined, visibleIf: undefined } } };
  return createEntityValidator(ajv, probe, 'patch', resolve)({ [name]: value });
}

type Body = { fields?: Record<string, Record<string, unknown>>; page?: Record<string, unknown> };

/**
 * The body of PUT /api/page_setting/{entity} as the override rows to store.
 * A value equal to the file's (or null) stores nothing: the page then follows
 * the file. Unknown fields or properties answer UNKNOWN_FIELD; values the
 * rules refuse answer VALIDATION_FAILED, naming each one.
 */
export function overridesFromBody(file: EntitySchema, raw: unknown, resolve: (n: string) => EntitySchema | undefined): SchemaOverride[] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('BAD_REQUEST', 'The body is an object: {"fields": {...}, "page": {...}}');
  const body = raw as Body;
  const unknown: FieldError[] = [];
  const invalid: FieldError[] = [];
  for (const k of Object.keys(body)) if (k !== 'fields' && k !== 'page') unknown.push({ field: k, code: 'unknown_field', message: 'is not a field of this record' });
  const out: SchemaOverride[] = [];
  const fileFieldValues = (f: FieldDef) => fieldSettings(f) as unknown as Record<string, unknown>;

  if (body.fields !== undefined && (typeof body.fields !== 'object' || body.fields === null || Array.isArray(body.fields))) throw new AppError('BAD_REQUEST', '"fields" is an object keyed by field name');
  for (const [name, props] of Object.entries(body.fields ?? {})) {
    const f = fieldOf(file, name);
    if (!f) { unknown.push({ field: `fields.${name}`, code: 'unknown_field', message: 'is not a field of this record' }); continue; }
    if (!props || typeof props !== 'object' || Array.isArray(props)) { invalid.push({ field: `fields.${name}`, code: 'page_setting', message: 'is an object of settings' }); continue; }
    for (const [prop, value] of Object.entries(props)) {
      if (!(OVERRIDABLE_FIELD_PROPERTIES as readonly string[]).includes(prop)) { unknown.push({ field: `fields.${name}.${prop}`, code: 'unknown_field', message: 'cannot be set on a field' }); continue; }
      if (value === null || value === undefined || same(value, fileFieldValues(f)[prop])) continue;
      const o = { entity: file.name, field: name, property: prop as FieldProperty, value } as SchemaOverride;
      const problem = overrideProblem(file, o, resolve);
      if (problem) { invalid.push({ field: `fields.${name}.${prop}`, code: 'page_setting', message: problem }); continue; }
      if (prop === 'default') {
        for (const e of defaultProblem(file, name, f, value, resolve)) invalid.push({ ...e, field: `fields.${name}.default` });
      }
      out.push(o);
    }
  }

  if (body.page !== undefined && (typeof body.page !== 'object' || body.page === null || Array.isArray(body.page))) throw new AppError('BAD_REQUEST', '"page" is an object of page settings');
  const filePage = pageSettings(file) as unknown as Record<string, unknown>;
  for (const [prop, value] of Object.entries(body.page ?? {})) {
    if (!(OVERRIDABLE_ENTITY_PROPERTIES as readonly string[]).includes(prop)) { unknown.push({ field: `page.${prop}`, code: 'unknown_field', message: 'cannot be set on a page' }); continue; }
    if (value === null || value === undefined || same(value, filePage[prop])) continue;
    const o = { entity: file.name, field: null, property: prop as EntityProperty, value } as SchemaOverride;
    const problem = overrideProblem(file, o);
    if (problem) { invalid.push({ field: `page.${prop}`, code: 'page_setting', message: problem }); continue; }
    out.push(o);
  }
  // together: a field the form must fill cannot be hidden from it unless something else fills it
  if (!unknown.length && !invalid.length) {
    const merged = applyOverrides(file, out);
    for (const [name, f] of Object.entries(merged.fields)) {
      const was = file.fields[name]!;
      if (was.hidden && was.required && was.default === undefined) continue; // the file's own choice, not this save's
      if (f.hidden && f.required && !f.readOnly && f.default === undefined && f.type !== 'lines' && merged.numbering?.field !== name && merged.workflow?.field !== name && merged.parent?.field !== name) {
        invalid.push({ field: `fields.${name}.hidden`, code: 'page_setting', message: `${name} is required: hidden from the form it needs a default` });
      }
    }
  }
  if (unknown.length) throw new AppError('UNKNOWN_FIELD', unknown.map((e) => `${e.field} ${e.message}`).join('; '), { fields: unknown });
  if (invalid.length) throw new AppError('VALIDATION_FAILED', invalid.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: invalid });
  return out;
}
