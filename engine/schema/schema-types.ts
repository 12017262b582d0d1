/**
 * The entity schema format: what a file in `schemas/` holds once parsed.
 * The JSON meta-schema in `meta-schema.ts` is the checked contract; these
 * types mirror it so the rest of the engine can rely on the shape.
 */
import type { Filter } from '../filter/filter-types.ts';

export type EntityKind = 'master' | 'document' | 'lines' | 'ledger' | 'singleton';

export const FIELD_TYPES = [
  'string', 'text', 'integer', 'decimal', 'money', 'boolean', 'date', 'datetime', 'enum',
  'link', 'lines', 'json', 'file', 'image', 'color', 'email', 'url', 'phone', 'tax_id',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface LocalizedText {
  th: string;
  en: string;
}

export interface EnumOption {
  value: string;
  label: LocalizedText;
  color?: string;
}

export interface FieldDef {
  type: FieldType;
  label: LocalizedText;
  help?: LocalizedText;
  required?: boolean;
  unique?: boolean;
  default?: unknown;
  readOnly?: boolean;
  hidden?: boolean;
  indexed?: boolean;
  searchable?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** decimal: total digits and digits after the point. money is always scale 2. */
  precision?: number;
  scale?: number;
  /** enum */
  options?: EnumOption[];
  /** link: the target entity (many-to-one) and which of its fields to show. */
  entity?: string;
  displayField?: string;
  onDelete?: 'restrict' | 'set_null' | 'cascade';
  /** Conditions in the list filter grammar, evaluated against the record being edited. */
  visibleIf?: Filter;
  requiredIf?: Filter;
  /** Previous column names; sync renames the first one that exists. */
  renamedFrom?: string[];
  /** file/image: accepted upload categories and mime types (used by the upload endpoint). */
  accept?: string[];
  /** link: the target's field that holds a colour (#rrggbb), shown as a chip next to the value. */
  colorField?: string;
  /** Copies a value from a linked row when the link is set and this field is not: {"link": "contact_id", "field": "mobile_number"}. */
  fillFrom?: { link: string; field: string };
}

/** A one-to-many list shown inside a record's form: rows of `entity` whose `field` links back to it. */
export interface RelatedList {
  key: string;
  entity: string;
  field: string;
  label: LocalizedText;
  columns?: string[];
}

export interface ListDefaults {
  columns: string[];
  filters?: string[];
  pageSize?: number;
}

export interface FormSection {
  key: string;
  label: LocalizedText;
  fields: string[];
  columns?: 1 | 2 | 3;
}

export interface NumberingSeries {
  /** Field that receives the number (a string field). */
  field: string;
  prefix: string;
  /** Tokens: {prefix} {YYYY} {YY} {MM} {DD} {seq:N}. */
  pattern: string;
  resetEvery?: 'never' | 'year' | 'month';
}

export interface WorkflowState {
  value: string;
  label: LocalizedText;
  color?: string;
  final?: boolean;
}

export interface WorkflowTransition {
  action: string;
  label: LocalizedText;
  from: string[];
  to: string;
}

export interface Workflow {
  field: string;
  initial: string;
  states: WorkflowState[];
  transitions: WorkflowTransition[];
}

/** Which columns carry row-level access keys (user type restrictions, portal ownership). */
export interface AccessKeys {
  inventoryField?: string;
  companyField?: string;
  customerField?: string;
  /** Personal rows (alerts): each user reads and marks only the rows whose ownerField is their own id. */
  ownerField?: string;
}

export interface EntitySchema {
  name: string;
  label: LocalizedText;
  labelPlural?: LocalizedText;
  kind: EntityKind;
  /** Permission key in a role's role_detail; defaults to the entity name. */
  menuKey?: string;
  /** Menu group for navigation; absent means not in the menu (e.g. lines entities). */
  menuGroup?: string;
  icon?: string;
  titleField: string;
  searchFields?: string[];
  defaultSort?: string;
  /** true uses the column is_deleted; an object names another column (legacy is_delete). */
  softDelete?: boolean | { field: string };
  renamedFrom?: string[];
  /** kind "lines": the owning entity and the column that points to it. */
  parent?: { entity: string; field: string };
  fields: Record<string, FieldDef>;
  indexes?: Array<{ fields: string[]; unique?: boolean }>;
  list?: ListDefaults;
  form?: { sections: FormSection[]; /** edit in a modal box over the list, on create and on edit */ modal?: boolean };
  related?: RelatedList[];
  numbering?: NumberingSeries;
  workflow?: Workflow;
  /** documents: printing rules; limitByRole caps prints per document at the role's production_report_print_times. */
  print?: { limitByRole?: boolean };
  access?: AccessKeys;
}

/** Columns every table has; clients can never write them. */
export const SYSTEM_FIELDS = ['id', 'created_at', 'created_by', 'updated_at', 'updated_by'] as const;
export const LINE_NO_FIELD = 'line_no';

export function softDeleteColumn(entity: EntitySchema): string | null {
  if (!entity.softDelete) return null;
  return entity.softDelete === true ? 'is_deleted' : entity.softDelete.field;
}

/**
 * The field of that name, looked up as an own property only: names come from
 * requests, and "constructor" or "__proto__" must not find Object's members.
 */
export function fieldOf(entity: Pick<EntitySchema, 'fields'>, name: string): FieldDef | undefined {
  return Object.hasOwn(entity.fields, name) ? entity.fields[name] : undefined;
}

/** Field types that own a column in the entity's table. */
export function hasColumn(field: FieldDef): boolean {
  return field.type !== 'lines';
}
