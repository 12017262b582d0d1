/**
 * The entity schema format: what a file in `schemas/` holds once parsed.
 * The JSON meta-schema in `meta-schema.ts` is the checked contract; these
 * types mirror it so the rest of the engine can rely on the shape.
 */
import type { Filter } from '../filter/filter-types.ts';
import type { LocalizedText } from './localized-text.ts';
import type { DocumentSpec, PrintSpec } from './document-spec-types.ts';

/** What an entity may hold for the engine (`holds`); the links each needs are in held-entities.ts HOLDINGS. */
export type Holding = 'userAccounts' | 'chartOfAccounts' | 'journalEntries' | 'stockMovements' | 'packBarcodes' | 'scanOvers' | 'alerts'
  | 'assetMovements' | 'productAttributes';

export type EntityKind = 'master' | 'document' | 'lines' | 'ledger' | 'singleton';

export const FIELD_TYPES = [
  'string', 'text', 'integer', 'decimal', 'money', 'boolean', 'date', 'datetime', 'enum',
  'link', 'lines', 'json', 'file', 'image', 'color', 'email', 'url', 'phone', 'tax_id',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];


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
  /** Not shown in the form (nor in exports); the API still reads and writes it as the file allows. */
  hidden?: boolean;
  /** Not offered as a list column (the form still shows it). */
  listHidden?: boolean;
  /** The list column's width in pixels. */
  width?: number;
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
  /** A lines field: the site setting (`code_name`, `name` or `code`) that decides what its lines' product picker shows. */
  pickerSetting?: string;
  /** A link: the target's fields whose values, joined, label the value and each choice (`["code", "name_th"]`: "1111 เงินสด"), sorted by the first. */
  pickerLabel?: string[];
  /** A lines field: the lines' two money fields that must add up alike (debit, credit); the form shows their totals and difference live. */
  balance?: { debit: string; credit: string };
  onDelete?: 'restrict' | 'set_null' | 'cascade';
  /**
   * A link to a document: `restrict` holds that document against its cancel action while this record is live (not
   * archived, not in a final workflow state): `409 HAS_DEPENDENTS` names it (server/documents/cancel-holds.ts).
   */
  onCancel?: 'restrict';
  /**
   * A boolean field of the site settings (setting_site) that shows this field: while it is off the
   * form does not show the field (ship-to details on a tax invoice: is_enable_customer_ship_to_details).
   * The field-level twin of the entity's `enabledBy`. Several settings: all must be on.
   */
  enabledBy?: string | string[];
  /**
   * A field of the site settings whose value is this field's default on a new record (a tax invoice's
   * type from `tax_invoice`); `default` applies while the setting is empty or not one of the options.
   */
  defaultSetting?: string;
  /**
   * `"company"` on a link to the company entity (the one whose `access.companyField` is `"id"`): a new
   * record that leaves it empty takes the caller's company when their user type limits them to one, else the
   * site setting that links to that entity (`default_company_id`), else the only company there is. Applied by
   * the server before the record is judged, so a required company need not be sent.
   */
  defaultFrom?: 'company';
  /** Conditions in the list filter grammar, evaluated against the record being edited. */
  visibleIf?: Filter;
  requiredIf?: Filter;
  /** A warning the form shows under the field while `when` holds (a hint to check, never a block): WHT on a receipt whose sources carry no rate. */
  warnIf?: { when: Filter; text: LocalizedText };
  /** Previous column names; sync renames the first one that exists. */
  renamedFrom?: string[];
  /** file/image: accepted upload categories and mime types (used by the upload endpoint). */
  accept?: string[];
  /** link: the target's field that holds a colour (#rrggbb), shown as a chip next to the value. */
  colorField?: string;
  /**
   * Copies a value from a linked row when the link is set and this field is not: {"link": "contact_id", "field": "mobile_number"}.
   * On a line, `priceList` names a path on the header (`"customer_id.price_list_id"`, or a header link) to an entity that
   * declares `priceList`: its price for the line's product (and quantity) wins over the product's own field.
   */
  fillFrom?: { link: string; field: string; priceList?: string };
  /**
   * date: the date of a tax invoice received, claimed in the month the record is recorded on (its date field
   * `recordedOn`): it may not be after that date, nor its month more than `months` months before that date's month
   * (input VAT, Revenue Code s. 82/3: six months). Field codes `after_recorded` and `claim_window_passed`.
   */
  claimWindow?: { recordedOn: string; months: number };
  /** date: follows another date plus a number of days, when not set: a due date `{"date": "doc_date", "days": "credit_term_days"}`; `days` may be one link away (`"customer_id.credit_term_days"`). */
  dateFrom?: { date: string; days: string };
  /**
   * A permission key (as in role_detail) whose edit flag a writer needs, besides edit on the
   * entity, to set or change this field: credit terms only for roles with edit on customer_credit.
   */
  writePermission?: string;
  /**
   * link: the choices depend on other fields of the same record (a line: of the same line).
   * Keys are fields of the target; a value is `"$form.<field>"` (the current value of that
   * field; no restriction while it is empty) or a constant. Contacts of the chosen company:
   * `{"customer_id": "$form.customer_id"}`. On a line, `"$parent.<field>"` is a field of the
   * document the line belongs to (a billing note line's invoice of the note's customer).
   * A list of constants is "any of them": a receipt line's bill is `{"status": ["issued", "partially_paid"]}`.
   * The form filters the picker, the server refuses a link outside it with VALIDATION_FAILED
   * (field code `link_filter`).
   */
  linkFilter?: Record<string, LinkFilterValue>;
  /** link: fields of the target the picker shows beside the display field (the product picker's code, unit…). */
  pickerColumns?: string[];
}

/** One condition of a linkFilter: a reference, a constant, or a list of constants (any of them). */
export type LinkFilterValue = string | number | boolean | Array<string | number>;

/** The list filter operator for one linkFilter value once resolved: a list is `_in`, anything else `_eq`. */
export function linkFilterCondition(value: unknown): { _in: unknown[] } | { _eq: unknown } {
  return Array.isArray(value) ? { _in: value } : { _eq: value };
}

/** `"$form.customer_id"` → `customer_id`; a constant (or a `$parent.` reference) → null. */
export function linkFilterSource(v: unknown): string | null {
  return typeof v === 'string' && v.startsWith('$form.') ? v.slice(6) : null;
}

/** `"$parent.customer_id"` (on a line: a field of its document) → `customer_id`; anything else → null. */
export function linkFilterParent(v: unknown): string | null {
  return typeof v === 'string' && v.startsWith('$parent.') ? v.slice(8) : null;
}

/** A one-to-many list shown inside a record's form: rows of `entity` whose `field` links back to it. */
export interface RelatedList {
  key: string;
  entity: string;
  field: string;
  label: LocalizedText;
  columns?: string[];
  /** The add button's own label ("ออกหนังสือรับรอง 50 ทวิ"), and when it shows: a filter on the parent record, as `visibleIf`. */
  add?: { label: LocalizedText; when?: Filter };
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
  /** Tokens: {prefix} {YYYY} {YY} {MM} {DD} {seq:N}, and field tokens {field} or {link_field.field}. */
  pattern: string;
  resetEvery?: 'never' | 'year' | 'month';
  /**
   * When the number is drawn: on create (default), or when the document is posted, so a series
   * such as tax invoices stays consecutive with no gaps (drafts that are deleted never took a number).
   */
  assignOn?: 'create' | 'post';
  /**
   * Fields whose values split the series: one counter (and one order of dates) per combination, e.g.
   * `["your_company_id"]` numbers tax documents per issuing company (a branch is a company row of its own).
   */
  per?: string[];
  /**
   * The date field the number's period ({YYYY} {MM} {DD} and the reset) follows, instead of the day the
   * number is drawn. Empty when the number is drawn: it is set to the business's today.
   */
  dateField?: string;
  /**
   * `"issue"`: the date is the issue date (Revenue Code s. 86/4 practice). When posted it may not be later
   * than today, nor earlier than the date of the last numbered document of the same series. Needs
   * `dateField` and `assignOn: "post"`.
   */
  dateRule?: 'issue';
}

export interface WorkflowState {
  value: string;
  label: LocalizedText;
  color?: string;
  final?: boolean;
  /** Plain writes may not change a record in this state (posted documents), except the `editable` fields. */
  locked?: boolean;
  editable?: string[];
}

export interface WorkflowTransition {
  action: string;
  label: LocalizedText;
  from: string[];
  to: string;
  /** A permission key whose edit flag the action needs; default: edit on the entity. */
  permission?: string;
  /** Fields the action's body may set in the same write (a cancellation reason). */
  fields?: string[];
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
  /** The fields a portal customer (role -1) may change on its own rows; every other field is refused. */
  customerWritable?: string[];
  /** The workflow states in which a portal customer (role -1) sees its rows at all: drafts stay in-house. */
  customerStates?: string[];
}

export interface EntitySchema {
  name: string;
  label: LocalizedText;
  labelPlural?: LocalizedText;
  kind: EntityKind;
  /** Permission key in a role's role_detail; defaults to the entity name. */
  menuKey?: string;
  /** Issues e-Tax documents (the issuing company): its form shows whether a signing certificate is configured. */
  etaxIssuer?: boolean;
  /** Menu group for navigation; absent means not in the menu (e.g. lines entities). */
  menuGroup?: string;
  /**
   * A boolean field of the site settings (setting_site) that switches the entity on: while off it is not in the menu and new records are refused (FEATURE_DISABLED).
   * Several settings: all must be on (a production report needs manufactured products and production reports).
   */
  enabledBy?: string | string[];
  /**
   * True on the one singleton that holds the site settings (setting_site): the settings that `enabledBy`,
   * `defaultSetting`, `defaultFrom` and the document's site rules name are its fields.
   */
  siteSettings?: true;
  /**
   * True on an entity documents are made out to (customer, supplier): a document's link to it is the
   * counterparty its print and e-Tax name (server/print/document-pdf.ts partyFields); the issuing company is
   * the entity with `access.companyField: "id"`.
   */
  party?: true;
  /**
   * What this entity holds for the engine (engine/schema/held-entities.ts): the user accounts, the stock ledger,
   * the pack barcodes… A feature finds its table by this key, never by name; at most one entity holds each.
   */
  holds?: Holding;
  /** Place within its menu group, smaller first (the order the work is done in); entities without one follow. */
  menuOrder?: number;
  icon?: string;
  titleField: string;
  searchFields?: string[];
  defaultSort?: string;
  /** true uses the column is_deleted; an object names another column (legacy is_delete). */
  softDelete?: boolean | { field: string };
  /**
   * Rows can be imported from a CSV or XLSX file: `POST /api/<name>/import` and the screen that a route of
   * kind `stock` with screen `import` declares for it (docs/stock.md, "Import").
   */
  importable?: boolean;
  renamedFrom?: string[];
  /** kind "lines": the owning entity and the column that points to it. */
  parent?: { entity: string; field: string };
  fields: Record<string, FieldDef>;
  /**
   * `live` (with `unique`): unique among the rows not in a final workflow state (a cancelled document), as soft
   * delete leaves archived rows out: one live 50 ทวิ per payment voucher, however many cancelled ones.
   */
  indexes?: Array<{ fields: string[]; unique?: boolean; live?: boolean }>;
  list?: ListDefaults;
  form?: { sections: FormSection[]; /** edit in a modal box over the list, on create and on edit */ modal?: boolean };
  related?: RelatedList[];
  numbering?: NumberingSeries;
  workflow?: Workflow;
  /** documents: printing rules; limitByRole caps prints per document at the role's production_report_print_times. */
  print?: PrintSpec;
  /** This entity is a price list: its lines field, and on those lines the product link, the price and the least quantity a price holds from. */
  priceList?: PriceListSpec;
  /** Extra list paths with their own query parameters (GET /api/promotion/list?is_delete=0); server/crud/list-alias-routes.ts. */
  listAliases?: ListAlias[];
  access?: AccessKeys;
  document?: DocumentSpec;
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

/** The entity that holds the site settings (`siteSettings: true`), if the set has one: a test may load a few schemas. */
export function siteSettingsOf(byName: ReadonlyMap<string, EntitySchema>): EntitySchema | undefined {
  for (const e of byName.values()) if (e.siteSettings) return e;
  return undefined;
}

/**
 * The issuing company of an entity's records: the link field its `access.companyField` names and the entity that
 * field links to (your_company), or null when the entity has no company. Read instead of naming the company entity.
 */
export function issuerOf(entity: EntitySchema): { field: string; entity: string } | null {
  const field = entity.access?.companyField;
  const target = field && field !== 'id' ? fieldOf(entity, field)?.entity : undefined;
  return field && target ? { field, entity: target } : null;
}

/** The company entity itself (`access.companyField: "id"`), if the set has one. */
export function companyEntityOf(all: Iterable<EntitySchema>): EntitySchema | undefined {
  for (const e of all) if (e.access?.companyField === 'id') return e;
  return undefined;
}

/** The site setting (a link field of setting_site) that names the default of that company entity (`defaultFrom: "company"`). */
export function companySetting(site: Pick<EntitySchema, 'fields'>, companyEntity: string): string | null {
  const found = Object.entries(site.fields).find(([, f]) => f.type === 'link' && f.entity === companyEntity);
  return found ? found[0] : null;
}

/** A link that takes the issuing company's default (`defaultFrom: "company"`: the caller's company, else the site setting's). */
export const defaultsFromCompany = (f: FieldDef): boolean => f.defaultFrom === 'company';

/** The site settings an `enabledBy` names, as a list (none when absent). */
export function enablingSettings(def: { enabledBy?: string | string[] } | undefined): string[] {
  return def?.enabledBy === undefined ? [] : [def.enabledBy].flat();
}

/** The shape of a price list, read by line fills (`fillFrom.priceList`). */
/**
 * A list under another path, taking its own parameters besides the list protocol: `deletedParam` (0 live rows,
 * the default; 1 the soft-deleted ones) and `params`, each filtering `field` by equality unless it is `all`.
 */
export interface ListAlias {
  path: string;
  deletedParam?: string;
  params?: { name: string; field: string; default?: string; all?: string }[];
}

export interface PriceListSpec {
  lines: string;
  product: string;
  price: string;
  minQty?: string;
}
