/**
 * Every route of spec section 2 as data. The router builds its routes from
 * this list; `kind` picks the lazily loaded screen. The create-from screens
 * (/receipt/sales_order, …) are not listed: the schemas declare them
 * (`document.from[]`) and SubPageScreen finds them under /{target}/{source}.
 *  - entity: generic list/form from the schema of the same name (or "not available yet" while no schema exists)
 *  - later: a feature of a later issue; shows its title and "not available yet"
 *  - childList: the rows of `entity` whose link `via` points at the record {id} (e.g. a company's files)
 *  - viewRecord: one record read-only; opening it sets the boolean `mark` to true (an alert is read)
 */
export type RouteKind =
  | 'home' | 'signin' | 'signinCustomer' | 'customerBills' | 'customerBill'
  | 'entityList' | 'entityDetail' | 'singleton' | 'later' | 'loading' | 'childList' | 'viewRecord' | 'admin' | 'pageSetting'
  | 'report' | 'stock';

export interface RouteEntry {
  path: string;
  titleKey: string;
  kind: RouteKind;
  /** entity kinds: which schema renders it. */
  entity?: string;
  /** false for the sign-in pages. */
  auth?: boolean;
  /** childList: the link field of `entity` that points at the record in the path. */
  via?: string;
  /** viewRecord: the boolean field set to true when the record is opened. */
  mark?: string;
  /** admin: which screen of web/src/pages/admin renders it; pageSetting: 'list' or 'editor'; report: which report screen; stock: which of web/src/pages/stock. */
  screen?: string;
}

/** Detail screens with their own editor instead of the generic form (web/src/pages/admin). */
const ADMIN_EDITORS: Record<string, string> = { user_role: 'role', user_type: 'userType', user_account: 'userAccount' };
const admin = (name: string, path: string, screen: string): RouteEntry => ({ path, titleKey: t(name), kind: 'admin', screen });

const t = (name: string) => `route.${name}`;

function entity(name: string): RouteEntry[] {
  return [
    { path: `/${name}`, titleKey: t(name), kind: 'entityList', entity: name },
    { path: `/${name}/create`, titleKey: t(name), kind: ADMIN_EDITORS[name] ? 'admin' : 'entityDetail', entity: name, screen: ADMIN_EDITORS[name] },
    { path: `/${name}/:id`, titleKey: t(name), kind: ADMIN_EDITORS[name] ? 'admin' : 'entityDetail', entity: name, screen: ADMIN_EDITORS[name] },
  ];
}

/** "/receipt/datatable": the entity's searchable list under the spec's path. */
function datatable(name: string): RouteEntry {
  return { path: `/${name}/datatable`, titleKey: t(`${name}_datatable`), kind: 'entityList', entity: name };
}

function later(name: string, path = `/${name.replace(/_(sales_order|purchase_order|production_report|delivery_order|datatable|import)$/, '/$1')}`): RouteEntry {
  return { path, titleKey: t(name), kind: 'later' };
}

function laterWithId(name: string, param = 'id'): RouteEntry[] {
  return [later(name, `/${name}`), later(name, `/${name}/:${param}`)];
}

export const MASTER_DATA = [
  'return_reason', 'prospect_type', 'prospect_priority', 'source_type', 'industrial_type', 'product_qc_status',
  'product_extra_field', 'product_container_qc_status', 'price_list', 'customer', 'supplier', 'your_company',
  'your_company_type', 'sales_channels', 'pos', 'staff', 'team_responsibilities', 'team', 'causes_of_waste',
  'product_location', 'product_container', 'machinery', 'payment_method', 'promotion',
] as const;

const ENTITY_ROUTES = [
  'user_account', 'user_role', 'user_type', 'usergroup',
  'quotation', 'sales_order', 'billing_note', 'receipt', 'tax_invoice', 'credit_note', 'debit_note', 'withholding_tax',
  'company', 'contact', 'working_record', 'prospect', 'order', 'alert',
  'purchase_order', 'purchase_invoice', 'production_report', 'goods_receipt', 'delivery_order', 'internal_product_transfer',
  'barcodes', 'barcodes_scan_over', 'product', 'product_attribute', 'asset', 'asset_movement', 'inventory', 'stock_movement',
  ...MASTER_DATA,
];

const ATTRIBUTE_PAGES = ['film_type', 'brand', 'grade', 'attr_1', 'attr_2', 'attribute'];

export const ROUTES: RouteEntry[] = [
  { path: '/', titleKey: t('home'), kind: 'home' },
  { path: '/signin', titleKey: t('signin'), kind: 'signin', auth: false },
  { path: '/signin/customer/:customerId', titleKey: t('signin_customer'), kind: 'signinCustomer', auth: false },
  { path: '/customerpage/:customerId/bill', titleKey: t('customer_bill'), kind: 'customerBills' },
  { path: '/customerpage/:customerId/bill/:id', titleKey: t('customer_bill'), kind: 'customerBill' },
  admin('account_edit', '/account_edit/:id', 'accountEdit'),
  ...ENTITY_ROUTES.flatMap(entity),
  datatable('receipt'),
  datatable('credit_note'), datatable('debit_note'),
  { path: '/collection_summary', titleKey: t('collection_summary'), kind: 'report', screen: 'collectionSummary' },
  { path: '/attachment/:id', titleKey: t('attachment'), kind: 'childList', entity: 'attachment', via: 'company_id' },
  { path: '/view_alert/:id', titleKey: t('view_alert'), kind: 'viewRecord', entity: 'alert', mark: 'is_read' },
  { path: '/product/import', titleKey: t('product_import'), kind: 'stock', screen: 'productImport' },
  { path: '/outgoing', titleKey: t('outgoing'), kind: 'stock', screen: 'outgoing' },
  { path: '/incoming', titleKey: t('incoming'), kind: 'stock', screen: 'incoming' },
  // the attributes of one kind, one attribute with its options, one option with its products (web/src/pages/attributes)
  ...ATTRIBUTE_PAGES.flatMap((name) => [
    admin(name, `/${name}`, 'attributeKind'), admin(name, `/${name}/:submenuDetailId`, 'attributeDetail'),
    admin(name, `/${name}/:submenuDetailId/:attributeId`, 'attributeOption'),
  ]),
  admin('attribute_option', '/attribute_option', 'attributeOptions'), admin('attribute_option', '/attribute_option/:attributeId', 'attributeDetail'),
  admin('custom_field', '/custom_field', 'customFields'),
  { path: '/setting_site', titleKey: t('setting_site'), kind: 'singleton', entity: 'setting_site' },
  // page settings (docs/page-settings.md); the spec's /{pageKey}/{subPageKey}… are SPEC_SUB_PAGE_PATHS below
  { path: '/page_setting', titleKey: t('page_setting'), kind: 'pageSetting', screen: 'list' },
  { path: '/page_setting/:pageKey', titleKey: t('page_setting'), kind: 'pageSetting', screen: 'editor' },
  { path: '/page_setting/:pageKey/:subPageKey', titleKey: t('page_setting'), kind: 'pageSetting', screen: 'editor' },
  // reports are not listed here: each report file the server lists (GET /api/report) is a screen at /{name}
  // (and /{name}/{id} with a routeParam), found by the dynamic routes (ui/route-screens.tsx)
  admin('system_log', '/system_log', 'logDays'), admin('system_log', '/system_log/:date', 'logDay'), admin('system_log', '/system_log/:date/:id', 'logEntry'),
  admin('db_manage', '/db_manage', 'dbManage'),
  { path: '/loading', titleKey: t('loading'), kind: 'loading' },
  admin('testuplaod', '/testuplaod', 'testUpload'), admin('test_com_socket', '/test_com_socket', 'testSocket'), admin('test_com_serial', '/test_com_serial', 'testSerial'),
];

/**
 * The spec's routes under a page that has settings: /{pageKey}/{subPageKey}, then
 * /{submenuDetailId} and /{attributeId}. They are matched after every static route,
 * and the screen decides (pages/page-setting/SubPageScreen.tsx): a menu group and one
 * of its pages, else the old /{entity}/{id}, else not found.
 */
export const SPEC_SUB_PAGE_PATHS = ['/:pageKey/:subPageKey', '/:pageKey/:subPageKey/:submenuDetailId', '/:pageKey/:subPageKey/:submenuDetailId/:attributeId'];

/** The entity a list or detail path shows ("/product/12" → "product"), or null for any other screen. */
export function entityOfPath(pathname: string): string | null {
  const first = pathname.split('/').filter(Boolean)[0];
  if (!first) return null;
  const hit = ROUTES.find((r) => r.entity === first && (r.kind === 'entityList' || r.kind === 'entityDetail'));
  return hit ? first : null;
}
