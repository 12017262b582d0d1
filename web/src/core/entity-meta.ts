import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { api } from './http-client.ts';
import { metaCall } from './startup-calls.ts';
import { noteLoadedVersion } from './loaded-version.ts';

export interface EntitySummary {
  name: string;
  label: { th: string; en: string };
  labelPlural?: { th: string; en: string };
  kind: string;
  menuKey: string;
  menuGroup?: string;
  icon?: string;
  /** What it holds for the engine (schema key `holds`): the web finds such entities by this, never by name. */
  holds?: EntitySchema['holds'];
  /** The entity an account's inventory or company allowances list the ids of. */
  scope?: 'inventories' | 'companies';
  /** Documents are made out to it (schema key `party`: customers, suppliers). */
  party?: true;
}

export interface EntityMeta {
  entity: EntitySchema;
  related: Record<string, EntitySchema>;
  /** The related entities the signed-in user may read (the server answers for these only). */
  readable?: string[];
}

let summaries: Promise<EntitySummary[]> | null = null;
let built: Promise<Set<string>> | null = null;
const metas = new Map<string, Promise<EntityMeta>>();
/** The schemas whose answer is here: a screen opened after its schema arrived renders it at once. */
const arrived = new Map<string, EntityMeta>();

/** GET /api/meta/entities, cached for the session. */
export function fetchEntitySummaries(): Promise<EntitySummary[]> {
  if (!summaries) {
    const res = api.get<{ data: EntitySummary[]; meta?: { built?: string[]; version?: number } }>('/api/meta/entities');
    summaries = res.then((r) => { noteLoadedVersion(r.meta?.version); return r.data; }).catch((e) => { summaries = null; throw e; });
    built = res.then((r) => new Set(r.meta?.built ?? []), () => { built = null; return new Set<string>(); });
  }
  return summaries;
}

/** Names of every built screen's entity (a schema exists), including those the user may not open. */
export async function fetchBuiltEntities(): Promise<Set<string>> {
  await fetchEntitySummaries().catch(() => undefined);
  return built ?? new Set();
}

/** GET /api/meta/entities/{name}: the merged schema plus its link targets and lines children. */
export function fetchEntityMeta(name: string): Promise<EntityMeta> {
  let p = metas.get(name);
  if (!p) {
    p = api.get<{ data: EntityMeta; meta?: { version?: number } }>(metaCall(name).path).then((r) => { noteLoadedVersion(r.meta?.version); return r.data; });
    p.then((m) => { if (metas.get(name) === p) arrived.set(name, m); }, () => metas.delete(name));
    metas.set(name, p);
  }
  return p;
}

/** The schema of `name` if its answer has arrived (fetchEntityMeta), else undefined. */
export function arrivedEntityMeta(name: string): EntityMeta | undefined {
  return arrived.get(name);
}

export function clearMetaCache(): void {
  summaries = null;
  built = null;
  metas.clear();
  arrived.clear();
}
