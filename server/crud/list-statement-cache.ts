import type { CompiledQuery } from 'kysely';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import type { ListQuery } from './list-query.ts';

/** Stand-ins for a list's limit and offset while its statement is compiled; any values would do, as they are found by position. */
const LIMIT_MARKER = -987_654_321_001;
const OFFSET_MARKER = -987_654_321_002;

function throughLink(node: FilterNode | null): boolean {
  if (!node) return false;
  return node.kind === 'cond' ? node.path.length > 1 : node.children.some(throughLink);
}

/**
 * Building and compiling a list's statement with Kysely costs about as much as SQLite's run of a
 * 50-row page. A list's SQL is a pure function of the entity's merged schema (its version), the
 * fields, filter, search and sort asked for, and the caller's row scope; limit and offset are
 * its last two parameters. So the compiled statement is kept by that shape, and each run puts
 * its own limit and offset in.
 *
 * Lists that reach another entity through a link (a dotted field, sort key or filter path, or a
 * scope such as a line's "under its document") are not kept: their SQL carries the linked
 * entity's scope for this caller, which the key does not name.
 */
export class ListStatementCache {
  private readonly statements = new Map<string, CompiledQuery | null>();

  constructor(private readonly capacity = 1000) {}

  /** The shape's key, or null when the statement must be built for every run. */
  keyOf(entity: string, version: number, userId: number | null, scope: FilterNode | null, q: ListQuery): string | null {
    if (throughLink(scope) || throughLink(q.filter)) return null;
    if (q.fields?.some((p) => p.length > 1) || q.sort.some((s) => s.path.length > 1)) return null;
    return JSON.stringify([entity, version, userId, scope, q.fields, q.filter, q.search, q.sort]);
  }

  /**
   * The compiled statement with this run's limit and offset, from the cache or from
   * `build(limit, offset)`. A statement whose last two parameters are not the limit and offset
   * (a dialect that compiles them elsewhere) is built afresh for every run.
   */
  statement(key: string, limit: number, offset: number, build: (limit: number, offset: number) => CompiledQuery): CompiledQuery {
    let compiled = this.statements.get(key);
    if (compiled !== undefined) {
      // the shapes in use stay; one-off filters (a value each) are the ones that leave
      this.statements.delete(key);
      this.statements.set(key, compiled);
    } else {
      const marked = build(LIMIT_MARKER, OFFSET_MARKER);
      const n = marked.parameters.length;
      compiled = n >= 2 && marked.parameters[n - 2] === LIMIT_MARKER && marked.parameters[n - 1] === OFFSET_MARKER ? marked : null;
      if (this.statements.size >= this.capacity) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(key, compiled);
    }
    if (!compiled) return build(limit, offset);
    const parameters = [...compiled.parameters];
    parameters[parameters.length - 2] = limit;
    parameters[parameters.length - 1] = offset;
    return { ...compiled, parameters };
  }
}
