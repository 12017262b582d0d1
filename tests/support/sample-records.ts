import { multipart, PNG } from './crm-fixtures.ts';
/**
 * Builds valid request bodies from schema field definitions, so tests can be
 * generated for every entity in schemas/ without writing one per entity.
 * Link targets are created through the API (once per app and entity) before
 * the record that needs them.
 */
import type { FastifyInstance } from 'fastify';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { EMAIL_MAX, URL_MAX } from '../../engine/validation/entity-json-schema.ts';
import { sampleForPattern } from './regex-sample.ts';
import { TOTAL_FIELDS } from '../../engine/documents/document-totals.ts';

type Row = Record<string, unknown>;

export interface SampleApi {
  app: FastifyInstance;
  headers: Record<string, string>;
}

/** A valid 13-digit Thai tax id built from a seed (12 digits + check digit). */
export function thaiTaxId(seed: number): string {
  const body = `1${String(seed % 1e11).padStart(11, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (13 - i);
  return body + String((11 - (sum % 11)) % 10);
}

let counter = 0;
/** A number never handed out before in this process, so unique fields stay unique across calls. */
function nextSeed(index: number): number {
  counter += 1;
  return index * 1000 + counter;
}

function fitLength(s: string, field: FieldDef, hardMax: number): string {
  const max = Math.min(field.maxLength ?? hardMax, hardMax);
  let out = [...s].slice(0, max).join('');
  while (out.length < (field.minLength ?? 0)) out += 'x';
  return out;
}

function numberInRange(field: FieldDef, scale: number, seed: number): number {
  const digits = field.precision ?? 15;
  const limit = 10 ** (digits - scale) - 10 ** -scale;
  const lo = Math.max(field.min ?? 0, -limit);
  const hi = Math.min(field.max ?? lo + 1000, limit);
  if (hi < lo) throw new Error(`cannot pick a number: min ${field.min} > max ${field.max}`);
  // a fractional part with every decimal place used, so scaling errors show
  const fraction = scale === 0 ? 0 : Number(('0.' + '123456'.slice(0, scale)));
  const span = Math.floor(hi - lo);
  let v = lo + (span > 0 ? (seed % span) : 0) + (span > 0 ? fraction : 0);
  v = Number(v.toFixed(scale));
  if (v > hi) v = Number(hi.toFixed(scale));
  if (v < lo) v = Number(lo.toFixed(scale));
  return v;
}

/**
 * A valid value for one scalar field (not link, not lines). `seed` makes
 * values differ between records. Throws when the definition cannot be met.
 */
export function sampleFieldValue(entity: EntitySchema, name: string, field: FieldDef, seed: number): unknown {
  const where = `${entity.name}.${name}`;
  // withholding tax takes only the legal Thai rates (engine/documents/document-math.ts), which a range cannot say
  if (name === 'wht_rate' && field.type !== 'enum') return [0, 1, 2, 3, 5][seed % 5];
  // a PromptPay id is a tax id with its check digit or a mobile number (server/print/promptpay-qr.ts), which a pattern cannot say
  if (name === 'promptpay_id') return `08${String(seed % 1e8).padStart(8, '0')}`;
  switch (field.type) {
    case 'string': case 'text': {
      if (field.pattern) {
        try {
          return sampleForPattern(field.pattern, seed, field.minLength ?? 0, Math.min(field.maxLength ?? 255, 255));
        } catch (err) {
          throw new Error(`${where}: ${(err as Error).message}`);
        }
      }
      return fitLength(`${seed} ทดสอบ ${name} ${entity.name}`, field, field.type === 'text' ? 20000 : 255);
    }
    case 'email': return fitLength(`user${seed}.${name}@example.co.th`, field, EMAIL_MAX);
    case 'url': return fitLength(`https://example.co.th/${entity.name}/${seed}`, field, URL_MAX);
    case 'phone':
      if (field.pattern) return sampleForPattern(field.pattern, seed, field.minLength ?? 3, Math.min(field.maxLength ?? 32, 32));
      return `+66 2 ${String(seed % 1e7).padStart(7, '0')}`;
    case 'color': return `#${((seed * 2654435761) % 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`;
    case 'tax_id': return thaiTaxId(seed);
    case 'enum': {
      const options = field.options!.map((o) => o.value);
      const others = options.filter((o) => o !== field.default);
      const pool = others.length ? others : options;
      return pool[seed % pool.length];
    }
    case 'integer': return numberInRange(field, 0, seed);
    case 'decimal': return numberInRange(field, field.scale ?? 0, seed);
    case 'money': return numberInRange(field, 2, seed);
    case 'boolean': return field.default === undefined ? seed % 2 === 0 : !field.default;
    case 'date': return `2024-${String((seed % 12) + 1).padStart(2, '0')}-${String((seed % 28) + 1).padStart(2, '0')}`;
    case 'datetime': return new Date(Date.UTC(2024, seed % 12, (seed % 28) + 1, seed % 24, seed % 60, 7)).toISOString();
    case 'json': return { seed, tags: ['a', 'ข'], nested: { ok: true } };
    case 'file': case 'image': return `uploads/${entity.name}/${seed}.png`;
    case 'link': case 'lines': throw new Error(`${where}: sampleFieldValue does not build ${field.type} values`);
  }
  throw new Error(`${where}: no sample value for field type "${(field as FieldDef).type}"`);
}

/** Ids of link targets already created, per app and entity, so a chain of links is built once. */
const targets = new WeakMap<FastifyInstance, Map<string, number>>();

const uploads = new WeakMap<FastifyInstance, Promise<string>>();

/** One tiny PNG uploaded per app through the real upload route; its id is what file and image fields hold. */
function uploadedFile(api: SampleApi): Promise<string> {
  let known = uploads.get(api.app);
  if (!known) {
    const { payload, headers } = multipart([{ filename: 'sample.png', contentType: 'image/png', content: PNG }]);
    known = api.app.inject({ method: 'POST', url: '/api/file/upload/sample', headers: { ...api.headers, ...headers }, payload }).then((res) => {
      if (res.statusCode !== 200) throw new Error(`sample upload failed: ${res.body}`);
      return res.json().data[0].id as string;
    });
    uploads.set(api.app, known);
  }
  return known;
}

async function linkTarget(target: EntitySchema, registry: SchemaRegistry, api: SampleApi, stack: string[], fixed: Row = {}): Promise<number> {
  let cache = targets.get(api.app);
  if (!cache) { cache = new Map(); targets.set(api.app, cache); }
  const key = Object.keys(fixed).length ? `${target.name} ${JSON.stringify(fixed)}` : target.name;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const body = { ...(await buildRecord(target, registry, 900, api, [...stack, target.name])), ...fixed };
  const res = await api.app.inject({ method: 'POST', url: `/api/${target.name}`, headers: api.headers, payload: body });
  if (res.statusCode !== 201) {
    throw new Error(`could not create a ${target.name} to link to (${res.statusCode}): ${res.body}\nbody: ${JSON.stringify(body)}`);
  }
  const id = Number(res.json().data.id);
  cache.set(key, id);
  return id;
}

async function buildRecord(entity: EntitySchema, registry: SchemaRegistry, index: number, api: SampleApi, stack: string[]): Promise<Row> {
  const seed = nextSeed(index);
  const body: Row = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.readOnly) continue;
    // a by-amount document's totals are its lines' (a billing note keeps them writable for the portal)
    if (entity.document?.byAmount && (TOTAL_FIELDS as readonly string[]).includes(name)) continue;
    if (field.type === 'lines') {
      const child = registry.get(field.entity!);
      if (!child) throw new Error(`${entity.name}.${name}: unknown lines entity ${field.entity}`);
      // lines unique per parent and links only (one value per attribute) take one line: links point at the same
      // cached rows in every line, so a second line would repeat the key (scalar values differ from line to line)
      const oneOnly = (child.indexes ?? []).some((ix) => ix.unique && child.parent && ix.fields.includes(child.parent.field)
        && ix.fields.every((f) => f === child.parent!.field || child.fields[f]?.type === 'link'));
      const lines = [await buildRecord(child, registry, index, api, stack)];
      if (!oneOnly) lines.push(await buildRecord(child, registry, index, api, stack));
      body[name] = lines;
      continue;
    }
    if (field.type === 'file' || field.type === 'image') {
      // a record may only point at a file its writer uploaded (or may see), so upload a real one
      body[name] = await uploadedFile(api);
      continue;
    }
    if (entity.workflow?.field === name) {
      // a status starts in the workflow's initial state and moves only through actions
      continue;
    }
    if (field.type === 'link' && entity.access?.ownerField === name) {
      // personal rows (alerts) are visible only to their owner: leave it to default to the signed-in user
      continue;
    }
    if (field.type === 'enum' && field.unique && !field.required) {
      // an optional value one record at most may hold (an account's posting role: a fresh database's chart holds
      // every role already, issue 50 §1): empty is valid, a sampled value would collide
      continue;
    }
    if (name === 'books_closed_until') {
      // a company's closing date refuses every entry dated on or before it (issue 50 §3), and sample records are dated
      // in 2024: the sample company keeps its books open
      continue;
    }
    if (field.type === 'link' && field.linkFilter && !field.required) {
      // its choices depend on other values (a bill line's tax invoice of the note's customer): a sample row cannot
      // be made to match, and an empty optional link is a valid record
      continue;
    }
    if (field.type === 'link') {
      const target = registry.get(field.entity!);
      if (!target) throw new Error(`${entity.name}.${name}: unknown link target ${field.entity}`);
      if (stack.includes(target.name) || target.kind === 'lines') {
        // a cycle (e.g. a parent link to the same entity): only an optional link can be left empty
        if (field.required) throw new Error(`${entity.name}.${name}: required link forms a cycle through ${stack.join(' -> ')}`);
        continue;
      }
      // a required link's filter of constants (a journal line's account is not a heading: is_group false) is met by the target made for it
      const fixed = Object.fromEntries(Object.entries(field.linkFilter ?? {}).filter(([, v]) => typeof v === 'boolean' || typeof v === 'number'));
      body[name] = await linkTarget(target, registry, api, stack, fixed);
      continue;
    }
    body[name] = sampleFieldValue(entity, name, field, seed);
  }
  // a tax invoice received is claimed in the month it is recorded (schema key claimWindow): dated the same day
  for (const [name, field] of Object.entries(entity.fields)) {
    const on = field.claimWindow?.recordedOn;
    if (on && body[name] !== undefined && body[on] !== undefined) body[name] = body[on];
  }
  return body;
}

/**
 * A valid create body for `entity`: every writable field filled with a value
 * its definition accepts, lines fields with 2 lines, links pointing at rows
 * created first through the API. Different `index`es give different records.
 */
export async function sampleRecord(entity: EntitySchema, registry: SchemaRegistry, index: number, api: SampleApi): Promise<Row> {
  return buildRecord(entity, registry, index, api, [entity.name]);
}
