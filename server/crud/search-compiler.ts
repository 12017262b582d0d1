import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { searchAmount, searchPaths, type SearchPath } from '../../engine/schema/search-paths.ts';
import { scaleOf, toDb } from '../db/field-codec.ts';
import { compileFilter, type CompileContext } from './filter-compiler.ts';
import { searchFields } from './record-values.ts';

type EB = ExpressionBuilder<any, any>;

/** May the caller read this field of a row reached through a link? */
export type CanReadLinked = (target: EntitySchema, field: string) => boolean;

/** True when the entity's search reaches another entity: its statement then carries the caller's scope on that entity. */
export function searchesThroughLinks(entity: EntitySchema): boolean {
  return searchFields(entity).some((f) => f.includes('.'));
}

function matchOn(eb: EB, col: Expression<unknown>, p: SearchPath, text: string, amount: ReturnType<typeof searchAmount>, ctx: CompileContext): Expression<SqlBool> | null {
  if (p.match === 'text') return ctx.adapter.icontains(col, text);
  // an amount with more decimals than the field keeps matches nothing there
  if (amount === null || amount.decimals > (p.field.type === 'integer' ? 0 : scaleOf(p.field))) return null;
  return eb(col, '=', toDb(p.field, amount.value));
}

/**
 * The list's `search=` as one OR over its searchFields. A field of a linked row
 * is matched as `link IN (SELECT id FROM target WHERE … AND <caller's scope on target>)`,
 * like a link filter, and only when the caller may read that field through a link:
 * a user who may not read customers finds no document by a customer's name.
 */
export function compileSearch(eb: EB, entity: EntitySchema, alias: string, text: string, ctx: CompileContext, canRead: CanReadLinked): Expression<SqlBool> | null {
  const amount = searchAmount(text);
  const parts: Expression<SqlBool>[] = [];
  const paths = searchPaths(entity, searchFields(entity), ctx.entity);
  for (const p of paths) {
    if (!p.target) {
      const m = matchOn(eb, eb.ref(`${alias}.${p.path[0]}`), p, text, amount, ctx);
      if (m) parts.push(m);
      continue;
    }
    const target = p.target;
    if (!canRead(target, p.path[1]!)) continue;
    const sub = `${alias}_s`;
    const m = matchOn(eb, eb.ref(`${sub}.${p.path[1]}`), p, text, amount, ctx);
    if (!m) continue;
    const scope = ctx.scope?.(target) ?? null;
    const inner = eb.selectFrom(`${target.name} as ${sub}`).select(`${sub}.id`)
      .where((ieb) => (scope ? (ieb as EB).and([m, compileFilter(ieb as EB, scope, target, sub, ctx)]) : m));
    parts.push(eb(eb.ref(`${alias}.${p.path[0]}`), 'in', inner as never));
  }
  // a search on an entity that searches something, where nothing applies ("abc" on amounts only), finds nothing
  if (!parts.length) return paths.length ? sql<SqlBool>`1 = 0` : null;
  return eb.or(parts);
}
