import { CUSTOMER_ROLE_ID } from '../../../engine/permissions/customer-role.ts';
import type { EarlyCall } from './early-requests.ts';
import type { Session } from './stored-session.ts';

/**
 * The calls the signed-in shell makes on start (app-data.ts loaders) and the
 * open screen's schema (entity-meta.ts), in one place: the loaders make them
 * and the boot entry sends them early, so both always ask the same thing.
 * null: this session does not make that call (a customer has no role to read).
 */
export const STARTUP_CALLS = {
  role: (s: Session): EarlyCall | null => (s.role_id === CUSTOMER_ROLE_ID ? null : { method: 'post', path: '/api/role/id', json: { role_id: s.role_id } }),
  userType: (s: Session): EarlyCall | null => (s.role_id === CUSTOMER_ROLE_ID ? null : { method: 'post', path: '/api/user_type/role', json: { role_id: s.role_id } }),
  settings: (): EarlyCall => ({ method: 'get', path: '/api/settingsite/1' }),
  translations: (): EarlyCall => ({ method: 'get', path: '/api/language/content/website_main' }),
  menu: (s: Session): EarlyCall => ({ method: 'get', path: s.role_id === CUSTOMER_ROLE_ID ? '/public/menu/customer' : '/api/menu' }),
  unreadCount: (s: Session): EarlyCall | null => (s.id === null ? null : { method: 'get', path: `/public/alert/user/${s.id}/number/notread` }),
};

/** GET /api/meta/entities/{name}: a screen's merged schema. */
export function metaCall(name: string): EarlyCall {
  return { method: 'get', path: `/api/meta/entities/${encodeURIComponent(name)}` };
}

/** GET /api/{entity}/{id}: a stored record, as the record form reads it (core/record-api.ts readRecord, no fields). */
export function recordCall(entity: string, id: string): EarlyCall {
  return { method: 'get', path: `/api/${encodeURIComponent(entity)}/${id}` };
}

/** GET /api/report/{name}/definition: one report's parameters and columns, as the report screen needs them (pages/reports/report-api.ts fetchReportDefinition). */
export function reportDefinitionCall(name: string): EarlyCall {
  return { method: 'get', path: `/api/report/${encodeURIComponent(name)}/definition` };
}

/** GET /api/report: the reports this user may view (pages/reports/report-api.ts fetchReports). */
export const REPORTS_CALL: EarlyCall = { method: 'get', path: '/api/report' };

/** GET /api/meta/entities: every screen's summary (entity-meta.ts fetchEntitySummaries). */
export const SUMMARIES_CALL: EarlyCall = { method: 'get', path: '/api/meta/entities' };

/** Every start-up call of this session, in the order the shell makes them. */
export function startupCallsOf(s: Session): EarlyCall[] {
  return Object.values(STARTUP_CALLS).map((c) => c(s)).filter((c): c is EarlyCall => c !== null);
}
