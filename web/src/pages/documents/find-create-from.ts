import { createFromScreen, type CreateFromScreen } from '../../../../engine/documents/create-from-labels.ts';
import { fetchEntityMeta } from '../../core/entity-meta.ts';

/**
 * The create-from screen a schema declares (`document.from[]` of `target`), or null when it
 * declares none for `source` (then the caller shows what the path otherwise means).
 */
export async function findCreateFrom(target: string, source: string): Promise<CreateFromScreen | null> {
  const meta = await fetchEntityMeta(target).catch(() => null);
  const spec = meta?.entity.document?.from?.find((f) => f.source === source);
  return meta && spec ? createFromScreen(meta.entity, spec, meta.related[source]) : null;
}
