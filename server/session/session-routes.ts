import { PreparedAnswer } from '../http/prepared-answer.ts';
import { settingsStamp } from '../realtime/settings-notifier.ts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import { contextOf } from '../auth/authenticator.ts';
import { loadRole, loadUserType, principalOf, type UserTypeInfo } from '../auth/principal.ts';
import type { RoleInfo } from '../../engine/permissions/customer-role.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import { fromDb } from '../db/field-codec.ts';
import { entityEnabled, siteSettings } from '../settings/site-settings.ts';
import { languageContent, LANGUAGES, menuGroups } from './language-content.ts';
import { checkScreenGroups, portalMenu, screenMenuEntries, type ScreenRights } from './screen-menu.ts';
import { createFromScreens } from '../../engine/documents/create-from-labels.ts';
import type { MenuItem } from '../menu/menu-types.ts';
import type { ScreenFlag } from '../../engine/schema/screen-types.ts';
import { addReportItems } from '../reports/report-menu.ts';
import type { ReportCatalogue } from '../reports/report-catalogue.ts';
import { isAdministrator } from '../auth/admin-access.ts';
import { unreadAlerts } from '../realtime/alert-notifier.ts';
import { authEntities } from '../auth/auth-entities.ts';
import { parseAnyId, parseRecordId } from '../../engine/validation/record-id.ts';

const bit = (b: boolean) => (b ? 1 : 0);

function roleData(r: RoleInfo) {
  return { id: r.id, name: r.name, role_detail: JSON.stringify(r.role_detail), production_report_print_times: r.production_report_print_times };
}

function userTypeData(t: UserTypeInfo) {
  return {
    id: t.id, name: t.name, type_detail: JSON.stringify(t.type_detail ?? {}), display_detail: JSON.stringify(t.display_detail ?? {}),
    is_show_all_menu: bit(t.is_show_all_menu), is_limit_inventory_to_access: bit(t.is_limit_inventory_to_access), is_limit_company_to_access: bit(t.is_limit_company_to_access),
  };
}

function roleIdOf(body: unknown): number {
  const v = (body as { role_id?: unknown } | null)?.role_id;
  const n = parseAnyId(v);
  if (n === null) throw new AppError('VALIDATION_FAILED', 'role_id: is required', { fields: [{ field: 'role_id', code: 'required', message: 'is required' }] });
  return n;
}

export type { MenuItem } from '../menu/menu-types.ts';

/** The menu entries of the create-from screens the schemas list in the menu: in the target's group, with its icon. */
function createFromMenu(registry: SchemaRegistry) {
  return createFromScreens(registry.all(), (n) => registry.get(n)).filter((s) => s.menu).flatMap((s) => {
    const e = registry.get(s.target)!;
    return e.menuGroup ? [{ group: e.menuGroup, entity: e, item: { keyAction: e.menuKey ?? e.name, label: s.label, path: s.path, icon: e.icon ?? 'pi pi-file' } }] : [];
  });
}

/**
 * The staff menu: one group per menuGroup, holding the entities the role may view and, with `rights`, the
 * create-from screens the schemas list and the screens of schemas/screens/screens.json the caller may open.
 */
export function staffMenu(registry: SchemaRegistry, canView: (e: EntitySchema) => boolean, rights?: Omit<ScreenRights, 'entity'>, screens?: Parameters<typeof screenMenuEntries>[2]): MenuItem[] {
  const groups = new Map<string, MenuItem>();
  const labels = menuGroups();
  // each item's place in its group: the schema's menuOrder (the order the work is done in); none keeps file order, after
  const place = new Map<object, number>();
  for (const e of registry.all()) {
    if (!e.menuGroup || !canView(e)) continue;
    const g = groups.get(e.menuGroup) ?? { key: e.menuGroup, label: labels[e.menuGroup] ?? { th: e.menuGroup, en: e.menuGroup }, submenu: [] };
    const item = { keyAction: e.menuKey ?? e.name, label: e.labelPlural ?? e.label, path: `/${e.name}`, icon: e.icon };
    g.submenu.push(item);
    place.set(item, e.menuOrder ?? Infinity);
    groups.set(e.menuGroup, g);
  }
  for (const m of rights ? createFromMenu(registry) : []) {
    const g = groups.get(m.group);
    if (!g || !canView(m.entity)) continue;
    g.submenu.push(m.item);
    place.set(m.item, (m.entity.menuOrder ?? Infinity) + 0.5);
  }
  const viewable = (name: string) => { const e = registry.get(name); return !!e && canView(e); };
  for (const m of rights ? screenMenuEntries({ ...rights, entity: viewable }, (n) => registry.get(n)?.menuOrder, screens) : []) {
    const g = groups.get(m.group) ?? { key: m.group, label: labels[m.group] ?? { th: m.group, en: m.group }, submenu: [] };
    groups.set(m.group, g);
    g.submenu.push(m.item);
    place.set(m.item, m.place);
  }
  for (const g of groups.values()) g.submenu.sort((a, b) => place.get(a)! - place.get(b)! || 0);
  const order = Object.keys(labels);
  return [...groups.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}

/** The calls the web app makes while it starts (spec section 7), answered as the spec describes them. */
/** `reports`: the report files' menu entries (server/reports/report-menu.ts). */
export function registerSessionRoutes(app: FastifyInstance, k: Kysely<any>, registry: SchemaRegistry, policy: PermissionPolicy, reports?: ReportCatalogue): void {
  checkScreenGroups();
  const auth = authEntities(registry);
  const menuKeyOf = (name: string) => policy.menuKeyOf(registry.get(name)!);
  const mayReadRole = (request: Parameters<typeof contextOf>[0], roleId: number) => {
    const ctx = contextOf(request);
    const p = principalOf(ctx)!;
    if (p.user.role_id !== roleId && !policy.can(ctx, menuKeyOf(auth.role), 'view')) throw new AppError('FORBIDDEN', 'You may only read your own role');
  };

  app.post('/api/role/id', async (request) => {
    const roleId = roleIdOf(request.body);
    mayReadRole(request, roleId);
    const role = await loadRole(k, auth, roleId);
    return { success: true, role_data: role ? [roleData(role)] : [] };
  });

  app.post('/api/user_type/role', async (request) => {
    const roleId = roleIdOf(request.body);
    mayReadRole(request, roleId);
    const t = await loadUserType(k, auth, null, roleId);
    return { success: true, role_data: t ? [userTypeData(t)] : [] };
  });

  /** "A fetch of the user type by role id: reads success and userType". */
  app.get<{ Params: { roleId: string } }>('/api/user_type/by_role/:roleId', async (request) => {
    const roleId = roleIdOf({ role_id: request.params.roleId });
    mayReadRole(request, roleId);
    const t = await loadUserType(k, auth, null, roleId);
    return { success: true, userType: t ? userTypeData(t) : null };
  });

  // every signed-in screen waits for this answer before it shows anything (web/src/ui/AppShell.tsx): built,
  // hashed and compressed once per version of the schemas and overrides (server/http/prepared-answer.ts)
  const content = new PreparedAnswer(() => ({ success: true, data: languageContent(registry), meta: { version: registry.version } }));
  registry.onChange(() => content.invalidate());
  app.get('/api/language/content/website_main', async (request, reply) => {
    contextOf(request);
    return content.send(request, reply);
  });
  app.get('/public/language', async () => ({ success: true, data: LANGUAGES }));

  app.get('/api/settingsite/1', async (request) => {
    contextOf(request);
    const entity = registry.siteSettings()!;
    const row = await k.selectFrom(entity.name).selectAll().orderBy('id').limit(1).executeTakeFirst();
    const data: Record<string, unknown> = { id: row ? Number(row.id) : 1 };
    for (const [name, f] of Object.entries(entity.fields)) {
      const v = row && row[name] !== null && row[name] !== undefined ? fromDb(f, row[name]) : f.default ?? null;
      data[name] = f.type === 'boolean' ? bit(v === true) : v;
    }
    // the stamp open screens compare with the one each socket hears as it connects (server/realtime/settings-notifier.ts)
    return { success: true, data, meta: { stamp: settingsStamp(row?.updated_at) } };
  });

  app.get('/api/menu', async (request) => {
    const ctx = contextOf(request);
    const p = principalOf(ctx)!;
    const all = p.userType?.is_show_all_menu === true;
    // an entity switched off in the site settings (schema key enabledBy) is not offered at all
    const site = await siteSettings(k, registry);
    // a portal customer's menu stays its entities (its billing notes and its own record): no screens, no reports
    const staff = p.user.role_id !== -1;
    const rights = staff ? { right: (key: string, flag: ScreenFlag) => all || policy.can(ctx, key, flag), administrator: isAdministrator(ctx) } : undefined;
    const menu = staffMenu(registry, (e) => entityEnabled(e, site) && (all || policy.can(ctx, policy.menuKeyOf(e), 'view')), rights);
    if (reports && staff) addReportItems(menu, reports, (key) => all || policy.can(ctx, key, 'view'), menuGroups());
    return { success: true, data: menu };
  });

  app.get('/public/menu/customer', async () => ({ success: true, data: portalMenu() }));

  const unread = async (userId: number): Promise<number> => {
    const alerts = registry.holder('alerts')?.name;
    if (!alerts) return 0; // alerts arrive with the CRM; until then nobody has any
    return unreadAlerts(k, alerts, userId);
  };

  app.get<{ Params: { userId: string } }>('/public/alert/user/:userId/number/notread', async (request) => {
    const p = principalOf(contextOf(request))!;
    if (String(p.user.id) !== request.params.userId) throw new AppError('FORBIDDEN', 'You may only read your own notifications');
    return { success: true, data: await unread(p.user.id) };
  });

  /** "A fetch of notification alerts for the stored user id: reads number_notification_not_read". */
  app.get('/api/alert/number/notread', async (request) => {
    const p = principalOf(contextOf(request))!;
    return { success: true, number_notification_not_read: await unread(p.user.id) };
  });

  app.post('/api/user/id', async (request) => {
    const ctx = contextOf(request);
    const p = principalOf(ctx)!;
    const raw = (request.body as { user_id?: unknown } | null)?.user_id;
    const id = parseRecordId(raw);
    if (id === null) throw new AppError('VALIDATION_FAILED', 'not found userId', { fields: [{ field: 'user_id', code: 'required', message: 'not found userId' }] });
    if (id !== p.user.id && !policy.can(ctx, menuKeyOf(auth.account), 'view')) throw new AppError('NOT_FOUND', 'not found userId');
    const u = await k.selectFrom(auth.account).select(['id', 'username', 'email', 'first_name', 'last_name', 'role_id', 'user_type_id', 'user_avatar', 'inventory_allow', 'branch_company', 'customer_id', 'is_active'])
      .where('id', '=', id).where('is_deleted', '=', 0).executeTakeFirst();
    if (!u) throw new AppError('NOT_FOUND', 'not found userId');
    return { success: true, data: { ...u, id: Number(u.id), role_id: Number(u.role_id), is_active: Number(u.is_active) } };
  });

}
