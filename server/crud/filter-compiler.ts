import { sql, type AliasableExpression, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { FilterNode, FilterScalar } from '../../engine/filter/filter-types.ts';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { describeField } from '../../engine/filter/filter-parser.ts';
import type { DialectAdapter } from '../db/dialect-adapter.ts';
import { toDb } from '../db/field-codec.ts';

export interface CompileContext {
  adapter: DialectAdapter;
  entity(name: string): EntitySchema | undefined;
  /** The caller's row restriction on an entity reached through a link, applied inside the subquery. */
  scope?(entity: EntitySchema): FilterNode | null;
}

type EB = ExpressionBuilder<any, any>;

function encode(field: FieldDef, v: FilterScalar): unknown {
  if (v === null) return null;
  if (field.type === 'boolean') return toDb(field, v);
  if (field.type === 'money' || field.type === 'decimal') return typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) ? toDb(field, v) : v;
  if (field.type === 'integer' || field.type === 'link') return typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (field.type === 'datetime' && typeof v === 'string' && !Number.isNaN(Date.parse(v))) return toDb(field, v);
  return v;
}

function condition(eb: EB, col: Expression<unknown>, field: FieldDef, node: Extract<FilterNode, { kind: 'cond' }>, ctx: CompileContext): Expression<SqlBool> {
  const { op, value } = node;
  const one = () => encode(field, value as FilterScalar);
  const many = () => (value as FilterScalar[]).map((v) => encode(field, v));
  switch (op) {
    case '_eq': return value === null ? eb(col, 'is', null) : eb(col, '=', one());
    case '_neq': return value === null ? eb(col, 'is not', null) : eb.or([eb(col, '<>', one()), eb(col, 'is', null)]);
    case '_lt': return eb(col, '<', one());
    case '_lte': return eb(col, '<=', one());
    case '_gt': return eb(col, '>', one());
    case '_gte': return eb(col, '>=', one());
    case '_in': return eb(col, 'in', many());
    case '_nin': return eb.or([eb(col, 'not in', many()), eb(col, 'is', null)]);
    case '_between': { const [a, b] = many(); return eb.and([eb(col, '>=', a), eb(col, '<=', b)]); }
    case '_null': return value ? eb(col, 'is', null) : eb(col, 'is not', null);
    case '_nnull': return value ? eb(col, 'is not', null) : eb(col, 'is', null);
    case '_contains': return ctx.adapter.contains(col, String(value));
    case '_icontains': return ctx.adapter.icontains(col, String(value));
    case '_starts_with': return ctx.adapter.startsWith(col, String(value));
  }
}

/**
 * Compiles a checked filter tree into a WHERE expression on `alias`.
 * A path through links becomes a nested "IN (SELECT id …)", which composes to
 * any depth without join aliases and cannot multiply rows.
 */
export function compileFilter(eb: EB, node: FilterNode, entity: EntitySchema, alias: string, ctx: CompileContext): Expression<SqlBool> {
  if (node.kind === 'and') return eb.and(node.children.map((c) => compileFilter(eb, c, entity, alias, ctx)));
  if (node.kind === 'or') return eb.or(node.children.map((c) => compileFilter(eb, c, entity, alias, ctx)));
  const [head, ...rest] = node.path;
  const field = describeField(entity, head!)!;
  const col = eb.ref(`${alias}.${head}`);
  if (rest.length === 0) return condition(eb, col, field, node, ctx);
  const target = ctx.entity(field.entity!)!;
  if (field.type === 'lines') {
    // "has a line where …": the lines follow their parent's visibility, so no scope of their own
    const sub = `${alias}_n`;
    const owned = eb
      .selectFrom(`${target.name} as ${sub}`)
      .select(`${sub}.${target.parent!.field}`)
      .where((ieb) => compileFilter(ieb as EB, { ...node, path: rest }, target, sub, ctx));
    return eb(eb.ref(`${alias}.id`), 'in', owned as never);
  }
  // derived from the outer alias, so the same filter always yields the same SQL (statement cache)
  const sub = `${alias}_f`;
  const targetScope = ctx.scope?.(target);
  const inner = eb
    .selectFrom(`${target.name} as ${sub}`)
    .select(`${sub}.id`)
    .where((ieb) => {
      const cond = compileFilter(ieb as EB, { ...node, path: rest }, target, sub, ctx);
      return targetScope ? (ieb as EB).and([cond, compileFilter(ieb as EB, targetScope, target, sub, ctx)]) : cond;
    });
  return eb(col, 'in', inner as never);
}

/** A scalar subquery reading a value through a chain of links, for dotted sort keys and dotted list fields. */
export function linkedValue(eb: EB, path: string[], entity: EntitySchema, alias: string, ctx: CompileContext): AliasableExpression<unknown> {
  const [head, ...rest] = path;
  if (rest.length === 0) return eb.ref(`${alias}.${head}`);
  const field = describeField(entity, head!)!;
  const target = ctx.entity(field.entity!)!;
  const sub = `${alias}_l`;
  const targetScope = ctx.scope?.(target);
  let q = eb
    .selectFrom(`${target.name} as ${sub}`)
    .select(() => linkedValue(eb, rest, target, sub, ctx).as('v'))
    .whereRef(`${sub}.id`, '=', `${alias}.${head}`);
  if (targetScope) q = q.where((ieb) => compileFilter(ieb as EB, targetScope, target, sub, ctx));
  return q.limit(1) as unknown as AliasableExpression<unknown>;
}

export const trueExpression = sql<SqlBool>`1 = 1`;
