import type { CompiledQuery, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { EntityService, ID_MARKER } from '../../server/crud/entity-service.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import type { RawListQuery } from '../../server/crud/list-query.ts';

export interface CapturedQuery { sql: string; parameters: unknown[] }

/** Records every query the generic service runs, compiled by the same Kysely compiler that runs it. */
class CapturePlugin implements KyselyPlugin {
  readonly queries: CapturedQuery[] = [];
  constructor(private readonly compile: (args: PluginTransformQueryArgs) => CompiledQuery) {}
  transformQuery(args: PluginTransformQueryArgs) {
    const c = this.compile(args);
    this.queries.push({ sql: c.sql, parameters: [...c.parameters] });
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** The exact SQL (and parameters) the generic list and get-by-id of an entity run for these inputs. */
export async function captureGenericSql(db: Database, registry: SchemaRegistry, entity: string, rawQuery: RawListQuery, id: number): Promise<{ list: CapturedQuery[]; get: CapturedQuery[] }> {
  const executor = db.kysely.getExecutor();
  const run = async (work: (s: EntityService) => Promise<unknown>) => {
    const plugin = new CapturePlugin((a) => executor.compileQuery(a.node, a.queryId));
    const service = new EntityService({ ...db, kysely: db.kysely.withPlugin(plugin) }, registry);
    await work(service);
    return plugin.queries;
  };
  const list = await run((s) => s.list(entity, s.parseQuery(s.entity(entity), rawQuery, systemContext), systemContext));
  // get-by-id compiles once with a marker in the id's slot and then runs with the id put there
  const get = (await run((s) => s.get(entity, id, systemContext))).map((q) => ({ ...q, parameters: q.parameters.map((p) => (p === ID_MARKER ? id : p)) }));
  return { list, get };
}
