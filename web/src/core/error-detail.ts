import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { errorText, type TextParams } from '../../../engine/errors/error-texts.ts';
import { ApiError } from './api-error.ts';

type T = (key: string, params?: Record<string, unknown>) => string;

/** A field path of a body (doc_date, items.0.qty) named as the form names it: its label, and a line's row number. */
export function fieldLabel(path: string, entity: EntitySchema | undefined, related: Record<string, EntitySchema> | undefined, lang: 'th' | 'en', t: T): string {
  const parts = path.replace(/^values\./, '').split('.');
  const top = entity?.fields[parts[0]!];
  const topLabel = top?.label?.[lang] ?? parts[0]!;
  if (parts.length >= 3 && /^\d+$/.test(parts[1]!)) {
    const lines = top?.type === 'lines' && top.entity ? related?.[top.entity] : undefined;
    const inner = lines?.fields[parts[2]!]?.label?.[lang] ?? parts[2]!;
    return `${topLabel} ${t('error.row', { n: Number(parts[1]) + 1 })}: ${inner}`;
  }
  return topLabel;
}

/**
 * What a failed call tells the person: a title, and a detail that names each field the server
 * named (by its label, with the server's message) and says what to do; any other error's
 * message as the server wrote it.
 */
export function errorToast(err: unknown, t: T, lang: 'th' | 'en', entity?: EntitySchema, related?: Record<string, EntitySchema>): { summary: string; detail: string } {
  if (!(err instanceof ApiError)) return { summary: t('common.error'), detail: String(err instanceof Error ? err.message : err) };
  const named = err.fields.filter((f) => f.field);
  if (named.length === 0) return { summary: t('common.error'), detail: err.message };
  const list = named.map((f) => `${fieldLabel(f.field!, entity, related, lang, t)}: ${f.message}`).join(' · ');
  return { summary: errorText(err.code, err.params as TextParams | undefined, lang) ?? t('common.error'), detail: `${list}. ${t('error.fix_marked')}` };
}
