import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { softDeleteColumn } from '../../engine/schema/schema-types.ts';
import { describeField } from '../../engine/filter/filter-parser.ts';
import type { RequestContext } from './access-policy.ts';
import type { ServiceCore } from './service-core.ts';
import { compileListAnswer, compileRecordAnswer, type RecordShape, type Serialize } from './record-serializer.ts';
import type { EntityReader } from './entity-reader.ts';

const COMPILED_MAX = 500;
const PER_PRINCIPAL_MAX = 200;

/**
 * The compiled answer writers of the generic reads (record-serializer.ts), one per entity, schema version,
 * set of fields the caller may read and `fields=` selection. A custom field or a page setting moves the
 * schema version, so the next read compiles a writer that names the new field. Which fields a caller may
 * read is worked out once per principal object (the authenticator keeps one per token for a few seconds
 * and makes a new one after any account or role change), not per request. Answers are never kept.
 */
export class AnswerSerializers {
  private readonly compiled = new Map<string, Serialize>();
  private readonly perPrincipal = new WeakMap<object, Map<string, Serialize>>();

  constructor(private readonly core: ServiceCore, private readonly reader: EntityReader) {}

  /** A get's answer: the row's columns as `fields` selects them, then the record's lines. */
  record(entity: EntitySchema, ctx: RequestContext, fields: string[][] | null): Serialize {
    return this.lookup('record', entity, ctx, fields, () => {
      const rowFields = fields?.filter((p) => describeField(entity, p[0]!)?.type !== 'lines') ?? null;
      // the names and order entity-reader.ts's loadLines reads them in
      const lines = Object.entries(entity.fields).filter(([name, f]) => f.type === 'lines' && (!fields || fields.some((p) => p[0] === name))).map(([name]) => name);
      return this.compiledOnce('record', this.shape(entity, ctx, rowFields, lines), compileRecordAnswer);
    });
  }

  /** A list page's answer. */
  list(entity: EntitySchema, ctx: RequestContext, fields: string[][] | null): Serialize {
    return this.lookup('list', entity, ctx, fields, () => this.compiledOnce('list', this.shape(entity, ctx, fields, []), compileListAnswer));
  }

  private lookup(kind: string, entity: EntitySchema, ctx: RequestContext, fields: string[][] | null, build: () => Serialize): Serialize {
    const local = `${kind}\u0000${entity.name}\u0000${this.core.registry.version}\u0000${fields ? JSON.stringify(fields) : '*'}`;
    const principal = typeof ctx.principal === 'object' && ctx.principal !== null ? ctx.principal : null;
    let mine = principal ? this.perPrincipal.get(principal) : undefined;
    const hit = mine?.get(local);
    if (hit) return hit;
    const serialize = build();
    if (principal) {
      if (!mine || mine.size >= PER_PRINCIPAL_MAX) this.perPrincipal.set(principal, (mine = new Map()));
      mine.set(local, serialize);
    }
    return serialize;
  }

  /**
   * The keys a read of `fields` answers with, those the caller may not read left out (never written, whatever
   * the row holds), and the soft-delete flag, which the decoder blanks. Dotted link paths were judged, through
   * the link, when the query was parsed.
   */
  private shape(entity: EntitySchema, ctx: RequestContext, fields: string[][] | null, lines: string[]): RecordShape {
    const { paths, defs } = this.reader.selection(entity, fields);
    const soft = softDeleteColumn(entity);
    const columns: RecordShape['columns'] = [];
    for (const p of paths) {
      const key = p.join('.');
      if (key === soft) continue;
      if (p.length === 1 && !this.core.policy.canReadField(ctx, entity, key, false)) continue;
      columns.push([key, defs.get(key)]);
    }
    return { columns, lines: lines.filter((name) => this.core.policy.canReadField(ctx, entity, name, false)) };
  }

  /** Shapes that agree (the same keys of the same types) share one compiled writer, whoever asked. */
  private compiledOnce(kind: string, shape: RecordShape, compile: (s: RecordShape) => Serialize): Serialize {
    const key = [kind, shape.columns.map(([k, d]) => `${k}:${d?.type ?? ''}`).join(','), shape.lines.join(',')].join('\u0000');
    let serialize = this.compiled.get(key);
    if (!serialize) {
      serialize = compile(shape);
      if (this.compiled.size >= COMPILED_MAX) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, serialize);
    }
    return serialize;
  }
}
