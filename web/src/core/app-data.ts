import { atom } from 'jotai';
import { api, ApiError } from './http-client.ts';
import { appStore } from './app-store.ts';
import { applyLanguageContent, type LanguageContentRow } from './i18n.ts';
import type { Session } from './stored-session.ts';
import { CUSTOMER_ROLE as BUILTIN_CUSTOMER_ROLE, CUSTOMER_ROLE_ID } from '../../../engine/permissions/customer-role.ts';
import { STARTUP_CALLS } from './startup-calls.ts';
import { noteLoadedVersion } from './loaded-version.ts';

export type Permission = { view?: boolean; email?: boolean; print?: boolean; export?: boolean; edit?: boolean };

export interface Role {
  id: number;
  name: string;
  role_detail: Record<string, Permission>;
  production_report_print_times: number;
}

export interface UserType {
  id: number | null;
  name: string;
  type_detail: unknown;
  display_detail: unknown;
  is_show_all_menu: number;
  is_limit_inventory_to_access: number;
  is_limit_company_to_access: number;
}

export interface SiteSettings {
  stylesheet?: string | null;
  tax_invoice?: string | null;
  stock_balance_sub_booked_table_type: string;
  do_create_type: string;
  is_hide_notification?: number | boolean;
  [key: string]: unknown;
}

export interface MenuItem {
  keyAction: string;
  label: { th: string; en: string };
  path: string;
  icon?: string;
}

export interface MenuGroup {
  key: string;
  label: { th: string; en: string };
  icon?: string;
  submenu: MenuItem[];
}

type Loadable<T> = { status: 'loading' } | { status: 'loaded'; data: T } | { status: 'error'; error: ApiError };

/** Role -1: the built-in Customer role (spec section 6), the same definition the server enforces. */
export const CUSTOMER_ROLE: Role = BUILTIN_CUSTOMER_ROLE;

export const EMPTY_USER_TYPE: UserType = {
  id: null, name: '', type_detail: {}, display_detail: {}, is_show_all_menu: 0, is_limit_inventory_to_access: 0, is_limit_company_to_access: 0,
};

export const DEFAULT_SETTINGS: SiteSettings = { stock_balance_sub_booked_table_type: 'so', do_create_type: 'create_with_so', is_hide_notification: 0 };

export const roleAtom = atom<Loadable<Role>>({ status: 'loading' });
export const userTypeAtom = atom<Loadable<UserType>>({ status: 'loading' });
export const settingsAtom = atom<Loadable<SiteSettings>>({ status: 'loading' });
export const translationAtom = atom<Loadable<{ contentType: string }>>({ status: 'loading' });
export const menuAtom = atom<Loadable<{ menuList: MenuGroup[]; subMenuObject: Record<string, MenuItem> }>>({ status: 'loading' });
export const sessionExpiredAtom = atom(false);
/** Unread alerts shown on the Notification button: counted on sign-in here, kept current by the socket (socket-client.ts). */
export const notificationNumberAtom = atom(0);

export const BAD_SETTINGS = 'Bad response from server';

function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return (text as T) ?? fallback;
  try { return JSON.parse(text) as T; } catch { return fallback; }
}

/** A 401 on any of the start-up calls means the session is expired. */
function expireOn401(err: unknown): ApiError {
  const e = err instanceof ApiError ? err : new ApiError(500, String(err));
  if (e.status === 401) appStore.set(sessionExpiredAtom, true);
  else console.error(e);
  return e;
}

export async function loadRole(session: Session): Promise<void> {
  if (session.role_id === CUSTOMER_ROLE_ID) {
    appStore.set(roleAtom, { status: 'loaded', data: CUSTOMER_ROLE });
    return;
  }
  try {
    const c = STARTUP_CALLS.role(session)!;
    const res = await api.post<{ success: boolean; role_data?: Array<Record<string, unknown>> }>(c.path, c.json);
    const row = res.role_data?.[0];
    if (!row) {
      appStore.set(sessionExpiredAtom, true);
      appStore.set(roleAtom, { status: 'error', error: new ApiError(401, 'role not found') });
      return;
    }
    appStore.set(roleAtom, {
      status: 'loaded',
      data: {
        id: Number(row.id), name: String(row.name ?? ''),
        role_detail: parseJson<Record<string, Permission>>(row.role_detail, {}),
        production_report_print_times: Number(row.production_report_print_times ?? 0),
      },
    });
  } catch (err) {
    appStore.set(roleAtom, { status: 'error', error: expireOn401(err) });
  }
}

export async function loadUserType(session: Session): Promise<void> {
  if (session.role_id === CUSTOMER_ROLE_ID) {
    appStore.set(userTypeAtom, { status: 'loaded', data: EMPTY_USER_TYPE });
    return;
  }
  try {
    const c = STARTUP_CALLS.userType(session)!;
    const res = await api.post<{ role_data?: Array<Record<string, unknown>> }>(c.path, c.json);
    const row = res.role_data?.[0];
    const data: UserType = row
      ? {
        id: Number(row.id), name: String(row.name ?? ''),
        type_detail: parseJson(row.type_detail, {}), display_detail: parseJson(row.display_detail, {}),
        is_show_all_menu: Number(row.is_show_all_menu ?? 0),
        is_limit_inventory_to_access: Number(row.is_limit_inventory_to_access ?? 0),
        is_limit_company_to_access: Number(row.is_limit_company_to_access ?? 0),
      }
      : EMPTY_USER_TYPE;
    appStore.set(userTypeAtom, { status: 'loaded', data });
  } catch (err) {
    appStore.set(userTypeAtom, { status: 'error', error: expireOn401(err) });
  }
}

/** The stamp of the settings on screen (the row's updated_at), compared with what the server announces. */
let settingsStamp: string | null | undefined;

/** Reads the site settings again unless the announced stamp is the one already shown. */
export function settingsAnnounced(stamp: unknown): void {
  if (typeof stamp === 'string' && stamp === settingsStamp) return;
  void loadSettings();
}

export async function loadSettings(): Promise<void> {
  try {
    const res = await api.get<{ success: boolean; data: SiteSettings; meta?: { stamp?: string | null } }>(STARTUP_CALLS.settings().path);
    settingsStamp = res.meta?.stamp;
    appStore.set(settingsAtom, { status: 'loaded', data: { ...DEFAULT_SETTINGS, ...(res.data ?? {}) } });
  } catch (err) {
    const e = expireOn401(err);
    // any answer with status >= 400 is reported as a bad response
    const shown = e.status >= 400 && e.status !== 408 ? new ApiError(e.status, BAD_SETTINGS, e.code) : e;
    appStore.set(settingsAtom, { status: 'error', error: shown });
  }
}

export async function loadTranslations(): Promise<void> {
  try {
    const res = await api.get<{ success: boolean; data: LanguageContentRow[]; meta?: { version?: number } }>(STARTUP_CALLS.translations().path);
    noteLoadedVersion(res.meta?.version);
    if (Array.isArray(res.data)) applyLanguageContent(res.data);
    appStore.set(translationAtom, { status: 'loaded', data: { contentType: 'website_main' } });
  } catch (err) {
    appStore.set(translationAtom, { status: 'error', error: expireOn401(err) });
  }
}

export async function loadMenu(session: Session): Promise<void> {
  try {
    const res = await api.get<{ success: boolean; data: MenuGroup[] }>(STARTUP_CALLS.menu(session).path);
    const menuList = Array.isArray(res.data) ? res.data : [];
    const subMenuObject: Record<string, MenuItem> = {};
    for (const g of menuList) for (const s of g.submenu ?? []) subMenuObject[s.keyAction] = s;
    appStore.set(menuAtom, { status: 'loaded', data: { menuList, subMenuObject } });
  } catch (err) {
    appStore.set(menuAtom, { status: 'error', error: expireOn401(err) });
  }
}

export async function loadUnreadCount(session: Session): Promise<void> {
  const c = STARTUP_CALLS.unreadCount(session);
  if (c === null) return;
  try {
    const res = await api.get<{ success: boolean; data: number }>(c.path);
    if (typeof res.data === 'number') appStore.set(notificationNumberAtom, res.data);
  } catch {
    // the unread count fails silently (spec section 8)
  }
}

/** Everything the shell needs before it shows a screen; each part moves from loading to loaded (or error). */
export async function loadAppData(session: Session): Promise<void> {
  for (const a of [roleAtom, userTypeAtom, settingsAtom, translationAtom, menuAtom] as const) appStore.set(a as never, { status: 'loading' } as never);
  await Promise.all([loadRole(session), loadUserType(session), loadSettings(), loadTranslations(), loadMenu(session), loadUnreadCount(session)]);
}

export function resetAppData(): void {
  for (const a of [roleAtom, userTypeAtom, settingsAtom, translationAtom, menuAtom] as const) appStore.set(a as never, { status: 'loading' } as never);
  appStore.set(sessionExpiredAtom, false);
}
