import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';

interface Tracked { target: EntitySchema; source: EntitySchema; spec: DocumentSource & { tracks: NonNullable<DocumentSource['tracks']> } }

function trackedOf(entities: EntitySchema[]): Tracked[] {
  const byName = new Map(entities.map((e) => [e.name, e]));
  const out: Tracked[] = [];
  for (const target of entities) {
    for (const spec of target.document?.from ?? []) {
      const source = byName.get(spec.source);
      if (spec.tracks && source) out.push({ target, source, spec: spec as Tracked['spec'] });
    }
  }
  return out;
}

const defaultOf = (e: EntitySchema, field: string) => String(fieldOf(e, field)!.default);

/**
 * A tracked status column added to a table that already has rows (schema sync adds it empty) is
 * worked out once from the progress counters, as posting would have set it: complete when every
 * line is fully processed, partial when any is processed at all, else the field's default. The
 * source's workflow status is then brought in line with its `completeWhen` (a sales order that a
 * tax invoice had marked completed, though nothing was delivered, is in progress again), for the
 * rows in the states the declaration manages. Nothing happens once no row is empty.
 */
export async function fillTrackedStatuses(k: Kysely<any>, entities: EntitySchema[]): Promise<void> {
  const refreshed = new Map<string, Tracked>();
  for (const t of trackedOf(entities)) {
    const { source, target, spec } = t;
    const child = entities.find((e) => e.name === fieldOf(source, source.document?.lines ?? '')?.entity);
    if (!child?.parent) continue;
    const measure = spec.measure ?? 'qty';
    const field = spec.tracks.field;
    const lines = (extra: RawBuilder<unknown>) => sql`select 1 from ${sql.table(child.name)} i
      left join document_progress p on p.source_entity = ${source.name} and p.target_entity = ${target.name} and p.source_line_id = i.id
      where ${sql.ref(`i.${child.parent!.field}`)} = ${sql.ref(`${source.name}.id`)} and ${extra}`;
    const res = await sql`update ${sql.table(source.name)} set ${sql.ref(field)} = case
        when exists (${lines(sql`1 = 1`)}) and not exists (${lines(sql`coalesce(p.done, 0) < ${sql.ref(`i.${measure}`)}`)}) then ${spec.tracks.complete}
        when exists (${lines(sql`p.done > 0`)}) then ${spec.tracks.partial}
        else ${defaultOf(source, field)} end
      where ${sql.ref(field)} is null`.execute(k);
    if (Number(res.numAffectedRows ?? 0) > 0 && spec.complete && !refreshed.has(source.name)) refreshed.set(source.name, t);
  }
  for (const { source, spec } of refreshed.values()) {
    const when = Object.entries(source.document?.completeWhen ?? {});
    if (!when.length) continue;
    const wf = source.workflow!.field;
    const all = sql.join(when.map(([f, v]) => sql`${sql.ref(f)} = ${v}`), sql` and `);
    const some = sql.join(when.map(([f]) => sql`${sql.ref(f)} <> ${defaultOf(source, f)}`), sql` or `);
    const managed = [...new Set([...spec.states, spec.partial, spec.complete].filter(Boolean) as string[])];
    await sql`update ${sql.table(source.name)} set ${sql.ref(wf)} = case
        when ${all} then ${spec.complete} when ${some} then ${spec.partial ?? spec.states[0]} else ${spec.states[0]} end
      where ${sql.ref(wf)} in (${sql.join(managed)})`.execute(k);
  }
}
