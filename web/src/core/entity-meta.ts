import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { api } from './http-client.ts';

export interface EntitySummary {
  name: string;
  label: { th: string; en: string };
  labelPlural?: { th: string; en: string };
  kind: string;
  menuKey: string;
  menuGroup?: string;
  icon?: string;
}

export interface EntityMeta {
  entity: EntitySchema;
  related: Record<string, EntitySchema>;
  /** The related entities the signed-in user may read (the server answers for these only). */
  readable?: string[];
}

let summaries: Promise<EntitySummary[]> | null = null;
const metas = new Map<string, Promise<EntityMeta>>();

/** GET /api/meta/entities, cached for the session. */
export function fetchEntitySummaries(): Promise<EntitySummary[]> {
  summaries ??= api.get<{ data: EntitySummary[] }>('/api/meta/entities').then((r) => r.data).catch((e) => { summaries = null; throw e; });
  return summaries;
}

/** GET /api/meta/entities/{name}: the merged schema plus its link targets and lines children. */
export function fetchEntityMeta(name: string): Promise<EntityMeta> {
  let p = metas.get(name);
  if (!p) {
    p = api.get<{ data: EntityMeta }>(`/api/meta/entities/${encodeURIComponent(name)}`).then((r) => r.data);
    p.catch(() => metas.delete(name));
    metas.set(name, p);
  }
  return p;
}

export function clearMetaCache(): void {
  summaries = null;
  metas.clear();
}
