import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Kysely } from 'kysely';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import type { AccessPolicy, CrudAction, GuardedAction, RequestContext } from '../crud/access-policy.ts';
import { guardAccountWrite } from './account-guard.ts';
import { authEntities, isAuthEntity, type AuthEntities } from './auth-entities.ts';
import { AppError } from '../errors/app-error.ts';
import { principalOf, type Principal } from './principal.ts';
import { CUSTOMER_ROLE_ID, type PermissionFlags } from '../../engine/permissions/customer-role.ts';

const NONE: PermissionFlags = { view: false, email: false, print: false, export: false, edit: false };
/** Fields of one's own account that only someone else may change. */
const SELF_PROTECTED = ['role_id', 'user_type_id', 'inventory_allow', 'branch_company', 'is_active', 'customer_id', 'staff_id', 'username'];

/**
 * A principal's flags per menu key, worked out once: a principal object never changes (the authenticator
 * makes a new one after any account, role or user-type change, and at the latest every few seconds).
 */
const flagMemo = new WeakMap<Principal, Map<string, PermissionFlags>>();

/** The flags of one menu key; shared by every caller, so read-only. */
export function flagsFor(p: Principal, menuKey: string): Readonly<PermissionFlags> {
  let mine = flagMemo.get(p);
  if (!mine) flagMemo.set(p, (mine = new Map()));
  let flags = mine.get(menuKey);
  if (!flags) {
    const d = p.role.role_detail;
    flags = Object.freeze({ ...NONE, ...(d['*'] ?? {}), ...(d[menuKey] ?? {}) });
    mine.set(menuKey, flags);
  }
  return flags;
}

const nothing = (): FilterNode => ({ kind: 'cond', path: ['id'], op: '_eq', value: 0 });
const within = (field: string, ids: number[]): FilterNode => (ids.length ? { kind: 'cond', path: [field], op: '_in', value: ids } : nothing());
/** A filter on a parent document, moved under the line's link to it ("your_company_id" → "billing_note_id.your_company_id"). */
const underParent = (field: string, node: FilterNode): FilterNode =>
  (node.kind === 'cond' ? { ...node, path: [field, ...node.path] } : { ...node, children: node.children.map((c) => underParent(field, c)) });

/**
 * Spec section 6 enforced on the server: menu flags per role, the user type's
 * inventory and company restrictions, the Customer role's own-rows rule, and
 * the rule that nobody raises their own rights.
 */
export class PermissionPolicy implements AccessPolicy {
  /**
   * Row scopes per principal and merged schema object: both never change (a new schema version brings
   * new objects, an account or role change a new principal), so each is built once, not per request.
   */
  private readonly scopes = new WeakMap<Principal, WeakMap<EntitySchema, FilterNode | null>>();

  constructor(private readonly registry: SchemaRegistry) {}

  /** The accounts', roles' and user types' entities (`holds`); a registry without accounts (a unit test's few schemas) has none. */
  private get auth(): AuthEntities | null {
    return this.registry.holder('userAccounts') ? authEntities(this.registry) : null;
  }

  menuKeyOf(entity: EntitySchema): string {
    if (entity.kind === 'lines' && entity.parent) {
      const parent = this.registry.get(entity.parent.entity);
      if (parent) return this.menuKeyOf(parent);
    }
    return entity.menuKey ?? entity.name;
  }

  can(ctx: RequestContext, menuKey: string, flag: keyof PermissionFlags): boolean {
    const p = principalOf(ctx);
    if (!p) return ctx.userId === null; // internal callers (seed, jobs) act as the system
    return flagsFor(p, menuKey)[flag];
  }

  private ownAccount(entity: EntitySchema): boolean {
    return entity.holds === 'userAccounts';
  }

  assertAllowed(ctx: RequestContext, entity: EntitySchema, action: GuardedAction): void {
    const p = principalOf(ctx);
    if (!p) {
      if (ctx.userId === null) return;
      throw new AppError('UNAUTHORIZED');
    }
    const flags = flagsFor(p, this.menuKeyOf(entity));
    const flag: keyof PermissionFlags = action === 'read' ? 'view' : action === 'create' || action === 'update' || action === 'delete' ? 'edit' : action;
    // everyone may read and edit their own account and their own personal rows (rowFilter keeps them to those)
    if ((this.ownAccount(entity) || entity.access?.ownerField) && (action === 'read' || action === 'update')) return;
    // the Customer role views and edits its own rows; it never creates or removes them
    if (p.user.role_id === CUSTOMER_ROLE_ID && (action === 'create' || action === 'delete')) {
      throw new AppError('FORBIDDEN', 'A customer account may view and edit its own records, not create or delete them');
    }
    // a write answers with the row written, so writing needs view too
    if (!flags[flag] || (flag !== 'view' && !flags.view)) {
      throw new AppError('FORBIDDEN', `Your role may not ${flag} ${entity.labelPlural?.en ?? entity.label.en}`);
    }
  }

  /** The same object for a principal and merged schema every time: callers read it (compile it, key by it), never change it. */
  rowFilter(ctx: RequestContext, entity: EntitySchema): FilterNode | null {
    const p = principalOf(ctx);
    if (!p) return null;
    let mine = this.scopes.get(p);
    if (!mine) this.scopes.set(p, (mine = new WeakMap()));
    let scope = mine.get(entity);
    if (scope === undefined) {
      scope = this.buildRowFilter(p, ctx, entity);
      mine.set(entity, scope);
    }
    return scope;
  }

  private buildRowFilter(p: Principal, ctx: RequestContext, entity: EntitySchema): FilterNode | null {
    const parts: FilterNode[] = [];
    const keys = entity.access ?? {};
    // lines are visible exactly when their document is: they have their own list and export routes
    const parent = entity.kind === 'lines' && entity.parent ? this.registry.get(entity.parent.entity) : undefined;
    if (parent) {
      const scope = this.rowFilter(ctx, parent);
      if (scope) parts.push(underParent(entity.parent!.field, scope));
    }
    if (this.ownAccount(entity) && !flagsFor(p, this.menuKeyOf(entity)).view) parts.push({ kind: 'cond', path: ['id'], op: '_eq', value: p.user.id });
    if (p.user.role_id === CUSTOMER_ROLE_ID) {
      if (keys.customerField) parts.push(p.user.customer_id ? { kind: 'cond', path: [keys.customerField], op: '_eq', value: p.user.customer_id } : nothing());
      else if (!this.ownAccount(entity) && !parent) parts.push(nothing());
      // drafts (and whatever else the schema leaves out) are the business's own work, not the customer's yet
      if (keys.customerStates && entity.workflow) parts.push({ kind: 'cond', path: [entity.workflow.field], op: '_in', value: keys.customerStates });
    }
    if (keys.ownerField) parts.push({ kind: 'cond', path: [keys.ownerField], op: '_eq', value: p.user.id });
    if (p.userType?.is_limit_inventory_to_access && keys.inventoryField) parts.push(within(keys.inventoryField, p.user.inventory_allow));
    if (p.userType?.is_limit_company_to_access && keys.companyField) parts.push(within(keys.companyField, p.user.branch_company));
    if (parts.length === 0) return null;
    return parts.length === 1 ? parts[0]! : { kind: 'and', children: parts };
  }

  canReadField(ctx: RequestContext, entity: EntitySchema, _field: string, viaLink: boolean): boolean {
    const p = principalOf(ctx);
    if (!p) return ctx.userId === null;
    if (flagsFor(p, this.menuKeyOf(entity)).view) return true;
    // the own-rows exceptions hold only where the row filter keeps the caller to their own rows:
    // on the entity queried, not on accounts or alerts reached through someone's created_by
    return !viaLink && (this.ownAccount(entity) || !!entity.access?.ownerField);
  }

  assertWritableRow(ctx: RequestContext, entity: EntitySchema, row: Record<string, unknown>, action: CrudAction): void {
    const p = principalOf(ctx);
    if (!p) return;
    const deny = (why: string, reason: string) => { throw new AppError('FORBIDDEN', why, undefined, { reason }); };
    const id = row.id === undefined ? undefined : Number(row.id);
    const auth = this.auth;
    if (entity.name === auth?.role) {
      if (id === CUSTOMER_ROLE_ID) deny('The built-in Customer role cannot be changed or deleted', 'builtin_role');
      if (id === p.user.role_id) deny('Nobody can change the permissions of their own role', 'own_role');
    }
    if (entity.name === auth?.type && action !== 'create' && (id === p.userType?.id || Number(row.role_id) === p.user.role_id)) {
      deny('Nobody can change the user type that applies to themselves', 'own_user_type');
    }
    if (entity.name === auth?.type && action === 'create' && Number(row.role_id) === p.user.role_id) {
      deny('Nobody can create a user type for their own role', 'own_user_type');
    }
    if (this.ownAccount(entity)) {
      if (id === p.user.id) {
        if (action === 'delete') deny('You cannot delete your own account', 'own_account');
      } else if (!flagsFor(p, this.menuKeyOf(entity)).edit) {
        deny('Your role may not edit other user accounts', 'other_accounts');
      }
    }
    const keys = entity.access ?? {};
    const inside = (field: string, allowed: number[]) => {
      const v = field === 'id' ? id : row[field];
      return v !== null && v !== undefined && allowed.includes(Number(v));
    };
    if (p.user.role_id === CUSTOMER_ROLE_ID && keys.customerField && !inside(keys.customerField, p.user.customer_id ? [p.user.customer_id] : [])) {
      deny('A customer account can only work with its own customer records', 'customer_scope');
    }
    if (p.userType?.is_limit_inventory_to_access && keys.inventoryField && !inside(keys.inventoryField, p.user.inventory_allow)) {
      deny(`You may only use your allowed inventories (${p.user.inventory_allow.join(', ') || 'none'})`, 'inventory_scope');
    }
    if (p.userType?.is_limit_company_to_access && keys.companyField && !inside(keys.companyField, p.user.branch_company)) {
      deny(`You may only use your allowed companies (${p.user.branch_company.join(', ') || 'none'})`, 'company_scope');
    }
  }

  /**
   * Field-level write rules, judged on the fields a write really changes: the
   * Customer role changes only its entity's `access.customerWritable` fields,
   * a field with `writePermission` needs edit on that key, nobody changes their
   * own grants, and someone else's personal rows are only marked read.
   */
  assertFieldWrites(ctx: RequestContext, entity: EntitySchema, row: Record<string, unknown>, changed: string[]): void {
    const p = principalOf(ctx);
    if (!p || changed.length === 0) return;
    const denied = new Set<string>();
    if (p.user.role_id === CUSTOMER_ROLE_ID) {
      const allowed = entity.access?.customerWritable ?? [];
      for (const f of changed) if (!allowed.includes(f)) denied.add(f);
    }
    for (const f of changed) {
      const key = fieldOf(entity, f)?.writePermission;
      if (key && !flagsFor(p, key).edit) denied.add(f);
    }
    if (this.ownAccount(entity) && Number(row.id) === p.user.id) {
      for (const f of changed) if (SELF_PROTECTED.includes(f)) denied.add(f);
    }
    if (entity.access?.ownerField && !flagsFor(p, this.menuKeyOf(entity)).edit) {
      for (const f of changed) if (f !== 'is_read') denied.add(f);
    }
    if (!denied.size) return;
    const names = [...denied];
    throw new AppError('FIELD_FORBIDDEN', `You may not change ${names.join(', ')} of this ${entity.label.en}`, {
      fields: names.map((field) => ({ field, code: 'forbidden', message: 'you may not change this field' })),
    });
  }

  /** Rules that need the database, inside the write's transaction: grants and the last administrator. */
  async guardWrite(trx: Kysely<any>, ctx: RequestContext, entity: EntitySchema, before: Record<string, unknown> | null, after: Record<string, unknown> | null): Promise<void> {
    const p = principalOf(ctx);
    const auth = this.auth;
    if (!p || !auth || !isAuthEntity(auth, entity.name)) return;
    await guardAccountWrite(trx, auth, p, this.registry.all().map((e) => this.menuKeyOf(e)), entity.name, before, after);
  }
}
