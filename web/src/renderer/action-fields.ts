import type { EntitySchema, WorkflowTransition } from '../../../engine/schema/schema-types.ts';

/** The field types a confirm dialog can ask for in a line of words (a void's reason, an asset's note). */
const WORDS = new Set(['text', 'string']);

/**
 * The fields of an action's body that the confirm dialog asks for: the transition's `fields` that are words (a
 * sale's `refund_reason` on its void), in the schema's order of the transition. The server takes them in the same
 * write as the status (server/crud/entity-actions.ts); other kinds of field (an amount, a link) have screens of their own.
 */
export function askedFields(entity: EntitySchema, tr: WorkflowTransition): string[] {
  return (tr.fields ?? []).filter((f) => WORDS.has(entity.fields[f]?.type ?? ''));
}

/** The body an action sends: what was typed for its asked fields, trimmed, blanks left out (the server keeps none). */
export function actionBody(entity: EntitySchema, tr: WorkflowTransition, typed: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of askedFields(entity, tr)) {
    const v = (typed[f] ?? '').trim();
    if (v) out[f] = v;
  }
  return out;
}
