import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';

export type CrudAction = 'read' | 'create' | 'update' | 'delete';
/** Menu flags beyond view/edit guard their own endpoints (export now; print and email with their features). */
export type GuardedAction = CrudAction | 'export' | 'print' | 'email';

/** Who is asking. The sign-in layer fills `user`; internal callers (seed, jobs) use systemContext. */
export interface RequestContext {
  userId: number | null;
  ip: string | null;
  /** Set by the permission layer; opaque to the CRUD layer. */
  principal?: unknown;
}

export const systemContext: RequestContext = { userId: null, ip: null };

/**
 * The CRUD layer asks the policy before every read and write. The engine
 * foundation ships allowEverything; the permissions layer replaces it.
 */
export interface AccessPolicy {
  /** Throws AppError FORBIDDEN when the action is not allowed on the entity at all. */
  assertAllowed(ctx: RequestContext, entity: EntitySchema, action: GuardedAction): void;
  /** Restricts which rows the caller may see or touch; null means no restriction. */
  rowFilter(ctx: RequestContext, entity: EntitySchema): FilterNode | null;
  /** Field-level read permission, checked for filter, sort and fields; `viaLink` when reached through a link. */
  canReadField(ctx: RequestContext, entity: EntitySchema, field: string, viaLink: boolean): boolean;
  /** Checks a row as it will be stored (after merge) stays inside the caller's scope. */
  assertWritableRow(ctx: RequestContext, entity: EntitySchema, row: Record<string, unknown>, action: CrudAction): void;
  /** Field-level write rules over the fields the write really changes (FIELD_FORBIDDEN names them). */
  assertFieldWrites(ctx: RequestContext, entity: EntitySchema, row: Record<string, unknown>, changed: string[]): void;
  /** Rules that need the database (grants, last administrator); runs inside the write's transaction. */
  guardWrite(trx: Kysely<any>, ctx: RequestContext, entity: EntitySchema, before: Record<string, unknown> | null, after: Record<string, unknown> | null): Promise<void>;
  /** May this caller use a permission key's flag (workflow actions that name their own key)? */
  can(ctx: RequestContext, menuKey: string, flag: 'view' | 'edit' | 'print' | 'export' | 'email'): boolean;
}

export const allowEverything: AccessPolicy = {
  assertAllowed: () => undefined,
  rowFilter: () => null,
  canReadField: () => true,
  assertWritableRow: () => undefined,
  assertFieldWrites: () => undefined,
  guardWrite: async () => undefined,
  can: () => true,
};

/** Internal callers (seed, jobs) act as the system: they are not held to workflows. */
export function isSystem(ctx: RequestContext): boolean {
  return ctx.userId === null && ctx.principal === undefined;
}

export interface WriteEvent {
  entity: string;
  id: number;
  action: 'create' | 'update' | 'delete';
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ctx: RequestContext;
  /** The workflow action that made this update (it moved the status; a document's lines are not written by it). */
  workflowAction?: string;
}
