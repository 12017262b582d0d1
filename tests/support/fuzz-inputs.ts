/**
 * Bad input for the input fuzzer (tests/hardening/input-fuzz.test.ts), built from a field's definition
 * in the schema files, so a new entity or field is fuzzed without a line of test code.
 */
import fc from 'fast-check';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';

type Row = Record<string, unknown>;

/** A row id no test creates: a link to it points at nothing. */
export const MISSING_ID = 987_654;

export const impossibleDates = fc.constantFrom('2026-13-01', '0000-00-00', '2026-02-30', '2026-00-10', '9999-99-99', '2026-1-1', '+275760-09-13', '2026-12-32', '-001-01-01');
export const impossibleDateTimes = fc.constantFrom('2026-13-01T00:00:00Z', '0000-00-00T00:00:00Z', '2026-02-30T10:00:00Z', '2026-01-01T25:61:00Z', '275760-09-13T00:00:00Z');
/** Out of range for every money and decimal field: too many decimals, past the bound, past 2^53. */
export const badNumbers = fc.constantFrom(1.005, 0.0001, 12.3400000001, 1e13, 999_999_999_999.999, 1_000_000_000_000, -1e15, 2 ** 53 + 2, 1e300, -1e300, 5e-324);
export const badIntegers = fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, 1e300, 2 ** 53 + 2, -1e300);
/** Text no field holds: over-long, control characters, NUL, lone surrogates, bidi overrides. */
export const badStrings = fc.oneof(
  fc.integer({ min: 256, max: 70_000 }).map((n) => 'ก'.repeat(n)),
  fc.constantFrom('a\u0000b', '\u0000', '\u0007\u0008\u001b[31m', '\ud800', 'x\udfff', '\u202eevil', ' ', ''),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
export const wrongTypes = fc.constantFrom<unknown>(true, false, 0, -1, 'text', '', [], [1, 2], {}, { a: 1 }, null, '1e5', 'NaN', 'Infinity');

/** A JSON value nested `depth` levels: arrays or objects. */
export function deep(depth: number, asObject: boolean): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
}

/** A value of the wrong kind for this field, chosen by its type. */
export function badValueFor(field: FieldDef): fc.Arbitrary<unknown> {
  const links = fc.constantFrom(MISSING_ID, 2_147_483_647, 0, -5);
  switch (field.type) {
    case 'date': return fc.oneof({ weight: 3, arbitrary: impossibleDates }, { weight: 1, arbitrary: wrongTypes });
    case 'datetime': return fc.oneof({ weight: 3, arbitrary: impossibleDateTimes }, { weight: 1, arbitrary: wrongTypes });
    case 'money': case 'decimal': return fc.oneof(badNumbers, wrongTypes, fc.constantFrom('1,000.00', '1e3', '12.345', '99999999999999999999'));
    case 'integer': return fc.oneof(badIntegers, wrongTypes);
    case 'link': return fc.oneof(links, badIntegers, wrongTypes);
    case 'json': return fc.constantFrom<unknown>(deep(40, true), deep(2000, false), { big: 'x'.repeat(300_000) });
    case 'lines': return fc.oneof(
      wrongTypes,
      fc.constantFrom<unknown>([null], [[]], ['line'], [{ zz_unknown: 1 }], [{ id: MISSING_ID }], Array.from({ length: 1001 }, () => ({}))),
    );
    case 'boolean': return fc.constantFrom<unknown>('true', 1, 0, 'yes', [], {});
    case 'enum': return fc.oneof(fc.constantFrom<unknown>('not-an-option', 'DRAFT ', 1), badStrings);
    default: return fc.oneof(badStrings, wrongTypes);
  }
}

/** One change that makes a body wrong: a field given a bad value, an unknown field, a line made wrong. */
export type Mutation = { kind: 'field'; field: string; value: unknown } | { kind: 'unknown'; field: string; value: unknown } | { kind: 'line'; lines: string; field: string; value: unknown };

export function mutationFor(entity: EntitySchema, lookup: (name: string) => EntitySchema | undefined): fc.Arbitrary<Mutation> {
  const fields = Object.entries(entity.fields).filter(([, f]) => f.type !== 'computed' as never);
  const options: fc.Arbitrary<Mutation>[] = [
    fc.record({ kind: fc.constant('unknown' as const), field: fc.constantFrom('zz_unknown', '__proto__', 'constructor', 'id', 'created_at', 'a'.repeat(300)), value: wrongTypes }),
  ];
  // the fields fills and defaults compute from (a date, a customer, a product) are picked more often
  const feeds = new Set(Object.values(entity.fields).flatMap((f) => [f.dateFrom?.date, f.fillFrom?.link].filter((n): n is string => !!n)));
  const weightOf = (name: string, f: FieldDef) => (feeds.has(name) ? 6 : ['date', 'datetime', 'money', 'decimal', 'link', 'lines'].includes(f.type) ? 2 : 1);
  if (fields.length) {
    options.push(fc.oneof(...fields.map(([name, f]) => ({ weight: weightOf(name, f), arbitrary: badValueFor(f).map((value) => ({ kind: 'field' as const, field: name, value })) }))));
  }
  for (const [name, f] of Object.entries(entity.fields)) {
    const child = f.type === 'lines' ? lookup(f.entity!) : undefined;
    if (!child) continue;
    const cf = Object.entries(child.fields);
    if (cf.length) options.push(fc.constantFrom(...cf).chain(([n, g]) => badValueFor(g).map((value) => ({ kind: 'line' as const, lines: name, field: n, value }))));
  }
  return fc.oneof(...options);
}

/** The header fields a fill or a due date computes from (a date, a customer), to send bad values to with the filled fields left out. */
export function fillInputs(entity: EntitySchema): string[] {
  return [...new Set(Object.values(entity.fields).flatMap((f) => [f.dateFrom?.date, f.fillFrom?.link].filter((n): n is string => !!n)))];
}

/**
 * A valid body without the values fills would give (a due date, a line's price): a fill runs only for a field
 * the body leaves out, so the fuzzer sends bodies both ways.
 */
export function withoutFilled(entity: EntitySchema, body: Row, lookup: (name: string) => EntitySchema | undefined): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(body)) {
    const f = entity.fields[k];
    if (f?.dateFrom || f?.fillFrom) continue;
    const child = f?.type === 'lines' ? lookup(f.entity!) : undefined;
    out[k] = child && Array.isArray(v) ? v.map((line: Row) => Object.fromEntries(Object.entries(line).filter(([n]) => !child.fields[n]?.fillFrom))) : v;
  }
  return out;
}

/** The body with the mutation applied (a line mutation changes the first line, or adds one). */
export function applyMutation(base: Row, m: Mutation): Row {
  const out: Row = { ...base };
  if (m.kind === 'line') {
    const lines = Array.isArray(out[m.lines]) ? [...(out[m.lines] as Row[])] : [];
    lines[0] = { ...(lines[0] ?? {}), [m.field]: m.value };
    out[m.lines] = lines;
  } else if (m.field === '__proto__') {
    Object.defineProperty(out, '__proto__', { value: m.value, enumerable: true, configurable: true, writable: true });
  } else {
    out[m.field] = m.value;
  }
  return out;
}

/** Raw request texts that are not a JSON object a route can take: broken JSON, duplicated keys, deep and huge JSON. */
export function rawBodies(base: Row, field: string | undefined): fc.Arbitrary<string> {
  const json = JSON.stringify(base);
  const dup = field ? `{${JSON.stringify(field)}:${JSON.stringify(base[field] ?? null)},${json.slice(1, -1)}${json.length > 2 ? ',' : ''}${JSON.stringify(field)}:{"x":[1]}}` : '{"a":1,"a":2}';
  return fc.constantFrom(
    '', 'null', '[]', '"text"', '42', 'true', '{', '{"a":', "{'a':1}", '{"a":1,}', 'NaN', '\u0000', json.slice(0, Math.max(1, json.length - 3)), dup,
    `${'['.repeat(20_000)}1${']'.repeat(20_000)}`, `{"x":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`, JSON.stringify({ ...base, pad: 'x'.repeat(1_200_000) }),
  );
}
