import type { EntitySchema } from '../schema/schema-types.ts';

type Row = Record<string, unknown>;
/** A plain decimal: digits, one optional point, an optional sign. No thousands separators, no exponent. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Digits a JavaScript number holds exactly; a longer string would be silently changed by the conversion. */
const MAX_DIGITS = 15;

/**
 * Money and decimal values may arrive as JSON numbers or as decimal strings
 * ("1250.50"): the API contract of documents allows both. A plain decimal
 * string becomes the number it names when the number holds it exactly; any
 * other string is left as it is, for the validator to refuse with its message.
 * Lines are normalised with their own schema.
 */
export function normalizeDecimalStrings(entity: EntitySchema, body: unknown, resolve: (name: string) => EntitySchema | undefined): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  let out: Row | null = null;
  const set = (k: string, v: unknown) => { out ??= { ...(body as Row) }; out[k] = v; };
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!Object.hasOwn(body, name)) continue;
    const v = (body as Row)[name];
    if ((f.type === 'money' || f.type === 'decimal') && typeof v === 'string' && DECIMAL.test(v.trim()) && v.replace(/[-.]/g, '').replace(/^0+/, '').length <= MAX_DIGITS) {
      set(name, Number(v.trim()));
    } else if (f.type === 'lines' && Array.isArray(v)) {
      const child = resolve(f.entity!);
      if (child) set(name, v.map((line) => normalizeDecimalStrings(child, line, resolve)));
    }
  }
  return out ?? body;
}
