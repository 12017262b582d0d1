import type { FastifyInstance } from 'fastify';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { contextOf } from '../auth/authenticator.ts';
import { flagsFor } from '../auth/permission-policy.ts';
import { authEntities } from '../auth/auth-entities.ts';
import { principalOf } from '../auth/principal.ts';
import { menuGroups } from '../session/language-content.ts';
import { AppError } from '../errors/app-error.ts';

/** Menu keys that are screens rather than entities, so a role can grant them too. */
const SCREEN_KEYS: { group: string; key: string; label: { th: string; en: string } }[] = [
  { group: 'admin', key: 'system_log', label: { th: 'บันทึกระบบ', en: 'System log' } },
  { group: 'settings', key: 'page_setting', label: { th: 'ตั้งค่าหน้าจอ', en: 'Page settings' } },
  { group: 'admin', key: 'db_manage', label: { th: 'จัดการฐานข้อมูล', en: 'Database management' } },
  { group: 'purchasing_stock', key: 'stock_balance', label: { th: 'ยอดคงเหลือสินค้า', en: 'Stock balances' } },
];

/**
 * GET /api/role_matrix/menu_keys: every menu key a role_detail can name,
 * grouped like the menu, for the role editor's matrix (needs view on user_role).
 */
export function registerMenuKeysRoute(app: FastifyInstance, registry: SchemaRegistry): void {
  app.get('/api/role_matrix/menu_keys', async (request) => {
    const p = principalOf(contextOf(request));
    const roles = registry.get(authEntities(registry).role)!;
    if (p && !flagsFor(p, roles.menuKey ?? roles.name).view) throw new AppError('FORBIDDEN', 'Your role may not view user roles');
    const labels = menuGroups();
    const groups = new Map<string, { key: string; label: { th: string; en: string }; items: { key: string; label: { th: string; en: string } }[] }>();
    const add = (group: string, key: string, label: { th: string; en: string }) => {
      const g = groups.get(group) ?? { key: group, label: labels[group] ?? { th: group, en: group }, items: [] };
      if (!g.items.some((i) => i.key === key)) g.items.push({ key, label });
      groups.set(group, g);
    };
    for (const e of registry.all()) {
      if (e.kind === 'lines' || !e.menuGroup) continue;
      add(e.menuGroup, e.menuKey ?? e.name, e.labelPlural ?? e.label);
    }
    for (const s of SCREEN_KEYS) add(s.group, s.key, s.label);
    // permission keys the schemas name for single fields and workflow actions (customer_credit): a role grants them here too
    for (const e of registry.all()) {
      if (e.kind === 'lines' || !e.menuGroup) continue;
      const owner = e.labelPlural ?? e.label;
      const named = new Map<string, { th: string[]; en: string[] }>();
      const note = (key: string, label: { th: string; en: string }) => {
        const n = named.get(key) ?? { th: [], en: [] };
        n.th.push(label.th); n.en.push(label.en);
        named.set(key, n);
      };
      for (const f of Object.values(e.fields)) if (f.writePermission) note(f.writePermission, f.label);
      for (const t of e.workflow?.transitions ?? []) if (t.permission) note(t.permission, t.label);
      for (const [key, n] of named) add(e.menuGroup, key, { th: `${owner.th}: ${n.th.join(', ')}`, en: `${owner.en}: ${n.en.join(', ')}` });
    }
    return { success: true, data: [...groups.values()] };
  });
}
