/**
 * Issue 49: the compiled answer writers (server/crud/answer-serializers.ts) write exactly what
 * JSON.stringify wrote before them, byte for byte, for every entity of every schema file: random
 * records as the codec decodes them (every field type, nulls, Thai text, lone surrogates, control
 * characters, large and negative numbers, any JSON), random `fields=` selections (dotted link paths
 * and lines included), gets and list pages. Values of a type the codec never hands over (a number in
 * a text column) go through the writer's fallback and must still come out the same.
 * A field the caller may not read never appears, whatever the row holds.
 * Random seed per run, printed; PROPERTY_SEED=<n> replays one.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { softDeleteColumn, type EntitySchema, type FieldDef } from '../../engine/schema/schema-types.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { EntityReader } from '../../server/crud/entity-reader.ts';
import { AnswerSerializers } from '../../server/crud/answer-serializers.ts';
import { allowEverything, type AccessPolicy, type RequestContext } from '../../server/crud/access-policy.ts';
import type { ServiceCore } from '../../server/crud/service-core.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { SCHEMAS_DIR } from '../support/test-app.ts';

type Row = Record<string, unknown>;

const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 20);
console.log(`answer-serializer property: seed ${SEED} (replay with PROPERTY_SEED=${SEED})`);

const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
const entities = registry.all();

function core(policy: AccessPolicy): ServiceCore {
  const entity = (n: string) => { const e = registry.get(n); if (!e) throw new Error(n); return e; };
  // reads that only work out shapes: no statement reaches the database
  return { db: null as unknown as Database, registry, policy, entity, lookup: entity };
}

const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', 'ลูกค้าทั่วไป', 'a"b\\c', '\u2028\u2029', '\ud800', '</script>', '0001', 'null'));
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 5 }), fc.constant({ x: 1 }), fc.constant([1, 'a']));

/** A value as the codec (server/db/field-codec.ts) hands it over for this field; unless `strict`, now and then one of another type. */
function valueOf(def: FieldDef | undefined, strict: boolean): fc.Arbitrary<unknown> {
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (def?.type) {
      case 'integer': case 'link': return fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant(0));
      case 'money': case 'decimal': return fc.oneof(fc.integer({ min: -1e12, max: 1e12 }).map((n) => n / 100), fc.double({ noNaN: true, noDefaultInfinity: true }));
      case 'boolean': return fc.boolean();
      case 'json': case undefined: return fc.jsonValue({ maxDepth: 2 });
      default: return text;
    }
  })();
  if (strict) return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: fc.constant(null) });
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: wrongType });
}

/** A `fields=` selection as the routes pass it: columns, dotted paths through links, in any order; null for all. */
function fieldsOf(entity: EntitySchema, reader: EntityReader): fc.Arbitrary<string[][] | null> {
  const own = [...reader.selection(entity, null).defs.keys()];
  const dotted: string[][] = [];
  for (const [name, f] of Object.entries(entity.fields)) {
    const target = f.type === 'link' && f.entity ? registry.get(f.entity) : undefined;
    if (target) for (const k of [...reader.selection(target, null).defs.keys()].slice(0, 4)) dotted.push([name, k]);
  }
  const lines = Object.entries(entity.fields).filter(([, f]) => f.type === 'lines').map(([n]) => [n]);
  const pool = [...own.map((k) => [k]), ...dotted, ...lines];
  return fc.option(fc.shuffledSubarray(pool, { minLength: 1 }), { nil: null, freq: 3 });
}

/** The row the reader builds for `fields` (its keys in its order, the soft-delete flag blanked) and the lines a get adds. */
function recordOf(entity: EntitySchema, reader: EntityReader, fields: string[][] | null, many: boolean): fc.Arbitrary<Row> {
  const rowFields = fields?.filter((p) => entity.fields[p[0]!]?.type !== 'lines') ?? null;
  const { paths, defs } = reader.selection(entity, rowFields);
  const soft = softDeleteColumn(entity);
  const keys = paths.map((p) => p.join('.'));
  const lineNames = many ? [] : Object.entries(entity.fields).filter(([n, f]) => f.type === 'lines' && (!fields || fields.some((p) => p[0] === n))).map(([n]) => n);
  const lineRow = fc.dictionary(fc.constantFrom('id', 'qty', 'name', 'line_no'), fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 4 });
  // most records are as the codec makes them (the compiled path); the others carry values of other types (the fallback)
  const values = (strict: boolean) => fc.tuple(...keys.map((k) => (k === soft ? fc.constant(undefined) : valueOf(defs.get(k), strict))));
  return fc.tuple(fc.oneof({ weight: 2, arbitrary: values(true) }, { weight: 1, arbitrary: values(false) }), fc.tuple(...lineNames.map(() => fc.array(lineRow, { maxLength: 3 }))))
    .map(([values, lines]) => {
      const row: Row = {};
      // a repeated key keeps its first place and value, as the driver's row object does
      keys.forEach((k, i) => { if (!Object.hasOwn(row, k)) row[k] = values[i]; });
      lineNames.forEach((n, i) => { row[n] = lines[i]; });
      return row;
    });
}

const admin: RequestContext = { userId: 1, ip: null, principal: { any: 'principal' } };

describe('compiled answer writers against JSON.stringify', () => {
  it(`every entity's get and list answers, byte for byte (${entities.length} entities)`, () => {
    const reader = new EntityReader(core(allowEverything));
    const answers = new AnswerSerializers(core(allowEverything), reader);
    entities.forEach((entity, i) => {
      fc.assert(fc.property(fieldsOf(entity, reader).chain((fields) => fc.tuple(fc.constant(fields), fc.array(recordOf(entity, reader, fields, true), { maxLength: 4 }), recordOf(entity, reader, fields, false))), ([fields, rows, one]) => {
        const get = { success: true, data: one };
        expect(answers.record(entity, admin, fields)(get), `get ${entity.name} fields=${JSON.stringify(fields)}`).toBe(JSON.stringify(get));
        const listFields = fields?.filter((p) => entity.fields[p[0]!]?.type !== 'lines') ?? null;
        const page = { success: true, data: rows, meta: { page: 1, limit: 25, offset: 0, total_count: rows.length } };
        expect(answers.list(entity, admin, listFields?.length ? listFields : null)(page), `list ${entity.name}`).toBe(JSON.stringify(page));
      }), { numRuns: RUNS, seed: SEED + i });
    });
  });

  it('never writes a field the caller may not read, on the fast path or the fallback', () => {
    const product = registry.get('product')!;
    const hidden = 'name_th';
    const policy: AccessPolicy = { ...allowEverything, canReadField: (_ctx, _e, field) => field !== hidden };
    const reader = new EntityReader(core(policy));
    const answers = new AnswerSerializers(core(policy), reader);
    fc.assert(fc.property(recordOf(product, reader, null, false), (row) => {
      expect(row).toHaveProperty(hidden);
      const out = JSON.parse(answers.record(product, admin, null)({ success: true, data: row })) as { data: Row };
      expect(Object.keys(out.data)).not.toContain(hidden);
      const page = JSON.parse(answers.list(product, admin, null)({ success: true, data: [row], meta: {} })) as { data: Row[] };
      expect(Object.keys(page.data[0]!)).not.toContain(hidden);
    }), { numRuns: RUNS * 5, seed: SEED });
  });
});
