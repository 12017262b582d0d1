import type { EntityMeta } from '../../core/entity-meta.ts';
import type { EarlyCall } from '../../core/early-requests.ts';
import type { DocumentSource } from '../../../../engine/schema/document-spec-types.ts';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';

/**
 * The calls a create-from screen (CreateFromPage.tsx) makes once its two schemas are in: one function for the
 * screen and for the boot entry (web/src/boot.ts), which sends them before the screen's code has loaded, so both
 * ask for exactly the same thing and the screen takes the early answers (core/early-requests.ts).
 * No library here: this module is part of the boot chunk.
 */

/** Every open document is listed at once; choosing a customer (or supplier) narrows the list. */
export const ALL_PARTIES = '*';

export interface Party { field: string; entity: string }

/** The source's link to the customer or supplier it belongs to (an entity with `party`), when every source document has one. */
export function partyOf(source: EntityMeta | null): Party | null {
  if (!source) return null;
  for (const [field, f] of Object.entries(source.entity.fields)) {
    if (f.type === 'link' && f.entity && source.related[f.entity]?.party && f.required) return { field, entity: f.entity };
  }
  return null;
}

/** The target's declaration of this create-from screen (`document.from[]`). */
export function createFromSpec(target: EntitySchema | null, source: string): DocumentSource | undefined {
  return target?.document?.from?.find((f) => f.source === source);
}

/** The parties to choose from (the picker above the documents). */
export function partiesCall(party: Party): EarlyCall {
  return { method: 'get', path: `/api/${party.entity}`, searchParams: { fields: 'id,code,name_th', sort: 'code', limit: 500 } };
}

/** The source document the screen was opened from (`?source=12`): its party is chosen at once. */
export function preselectCall(source: string, id: number, party: Party): EarlyCall {
  return { method: 'get', path: `/api/${source}/${id}`, searchParams: { fields: `id,${party.field}` } };
}

/** The open source documents this target can still be made from, of one party or of all ('*'); null when the source has no workflow. */
export function openDocumentsCall(spec: DocumentSource, source: EntitySchema, party: Party | null, customer: string): EarlyCall | null {
  if (!source.workflow) return null;
  const open = [...spec.states, ...(spec.partial ? [spec.partial] : [])];
  const filter = JSON.stringify({ ...(party && customer !== ALL_PARTIES ? { [party.field]: { _eq: Number(customer) } } : {}), [source.workflow.field]: { _in: open } });
  const suggested = Object.values(spec.headerDefaults ?? {});
  const fields = [...new Set(['id', source.titleField, 'doc_date', 'total_amount', source.workflow.field, ...suggested])].filter((f) => f === 'id' || source.fields[f]);
  return { method: 'get', path: `/api/${source.name}`, searchParams: { filter, fields: fields.join(','), sort: source.defaultSort ?? '-id', limit: 200 } };
}

/** What the screen asks first when it opens: the parties, the source document it was opened from, and every open document. */
export function firstCreateFromCalls(target: EntityMeta, source: EntityMeta, preselect?: number): EarlyCall[] {
  const spec = createFromSpec(target.entity, source.entity.name);
  if (!spec) return [];
  const party = partyOf(source);
  const documents = openDocumentsCall(spec, source.entity, party, ALL_PARTIES);
  return [
    ...(party ? [partiesCall(party), ...(preselect !== undefined ? [preselectCall(source.entity.name, preselect, party)] : [])] : []),
    ...(documents ? [documents] : []),
  ];
}
