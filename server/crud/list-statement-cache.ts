import type { CompiledQuery } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import type { ListQuery } from './list-query.ts';

/** Stand-ins for a list's limit and offset while its statement is compiled; any values would do, as they are found by their text. */
const LIMIT_MARKER = -987_654_321_001;
const OFFSET_MARKER = -987_654_321_002;

/** The one place `text` occurs in `sql`, or -1 when it occurs never or more than once. */
function onlyPlace(sql: string, text: string): number {
  const at = sql.indexOf(text);
  return at >= 0 && sql.indexOf(text, at + 1) < 0 ? at : -1;
}

function throughLink(node: FilterNode | null): boolean {
  if (!node) return false;
  return node.kind === 'cond' ? node.path.length > 1 : node.children.some(throughLink);
}

interface Kept {
  compiled: CompiledQuery;
  limitAt: number;
  offsetAt: number;
  /** The last page's text, handed out again while the page stays the same: the same string, whose hash the statement cache's lookup has computed already. */
  last?: { limit: number; offset: number; sql: string };
}
/** A shape whose statement is built for every run (its limit and offset could not be found). */
const UNKEPT = Object.freeze({ unkept: true });

/**
 * Building and compiling a list's statement with Kysely costs about as much as SQLite's run of a
 * 50-row page. A list's SQL is a pure function of the entity's merged schema (its version), the
 * fields, filter, search and sort asked for, and the caller's row scope, plus its limit and offset.
 * So the compiled statement is kept by that shape, and each run writes its own limit and offset in.
 *
 * Limit and offset are written into the SQL as numbers, not bound: the SQLite better-sqlite3 bundles
 * (3.53 here) looks at a bound LIMIT's value while planning, and a statement whose plan looked at a
 * bound value is compiled again on every run (seen with callgrind: about a tenth of a 50-row list's
 * instructions). A text per page also lets SQLite keep each page's prepared statement.
 *
 * Lists that reach another entity through a link (a dotted field, sort key, filter path or search field, or a
 * scope such as a line's "under its document") are not kept: their SQL carries the linked
 * entity's scope for this caller, which the key does not name.
 */
export class ListStatementCache {
  private readonly statements: LRUCache<string, Kept | typeof UNKEPT>;

  private readonly fixed: LRUCache<string, CompiledQuery>;

  constructor(capacity = 1000) {
    this.statements = new LRUCache({ max: capacity });
    this.fixed = new LRUCache({ max: capacity });
  }

  /**
   * A statement of the shape that has no limit or offset (a list's count): compiled once per key.
   * The key must name what the statement depends on, as `keyOf`'s does for the count of a list.
   */
  once(key: string, build: () => CompiledQuery): CompiledQuery {
    let kept = this.fixed.get(key);
    if (!kept) this.fixed.set(key, (kept = build()));
    return kept;
  }

  /** The shape's key, or null when the statement must be built for every run. */
  keyOf(entity: string, version: number, userId: number | null, scope: FilterNode | null, q: ListQuery, searchThroughLink = false): string | null {
    if (throughLink(scope) || throughLink(q.filter) || (q.search && searchThroughLink)) return null;
    if (q.fields?.some((p) => p.length > 1) || q.sort.some((s) => s.path.length > 1)) return null;
    return JSON.stringify([entity, version, userId, scope, q.fields, q.filter, q.search, q.sort, q.deleted === true]);
  }

  /**
   * The compiled statement with this run's limit and offset, from the cache or from
   * `build(limit, offset)`, which writes both into the SQL as literals. A statement where they
   * cannot be found once each (a dialect that writes them otherwise) is built afresh for every run.
   */
  statement(key: string, limit: number, offset: number, build: (limit: number, offset: number) => CompiledQuery): CompiledQuery {
    if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset)) throw new Error('a list\'s limit and offset are whole numbers');
    // the shapes in use stay; one-off filters (a value each) are the ones that leave
    let kept = this.statements.get(key);
    if (kept === undefined) {
      const marked = build(LIMIT_MARKER, OFFSET_MARKER);
      const limitAt = onlyPlace(marked.sql, String(LIMIT_MARKER));
      const offsetAt = onlyPlace(marked.sql, String(OFFSET_MARKER));
      kept = limitAt >= 0 && offsetAt > limitAt ? { compiled: marked, limitAt, offsetAt } : UNKEPT;
      this.statements.set(key, kept);
    }
    if (kept === UNKEPT) return build(limit, offset);
    const { compiled, limitAt, offsetAt, last } = kept as Kept;
    if (last && last.limit === limit && last.offset === offset) return { ...compiled, sql: last.sql };
    const text = compiled.sql;
    const sql = text.slice(0, limitAt) + String(limit) + text.slice(limitAt + String(LIMIT_MARKER).length, offsetAt) + String(offset) + text.slice(offsetAt + String(OFFSET_MARKER).length);
    (kept as Kept).last = { limit, offset, sql };
    return { ...compiled, sql };
  }
}
