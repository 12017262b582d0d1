import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntitySchema } from '../engine/schema/schema-types.ts';
import type { EntityService } from '../server/crud/entity-service.ts';
import { systemContext } from '../server/crud/access-policy.ts';
import { createFrom } from '../server/documents/create-from.ts';
import { businessClock } from '../engine/documents/business-clock.ts';
import { businessToday } from '../engine/documents/business-time.ts';

interface SeedFile {
  entity: string;
  rows: Record<string, unknown>[];
}

type Lookup = { $lookup: Record<string, unknown> };
const isLookup = (v: unknown): v is Lookup => !!v && typeof v === 'object' && '$lookup' in (v as object);
type Today = { $today: number };
const isToday = (v: unknown): v is Today => !!v && typeof v === 'object' && '$today' in (v as object);
/** An action with the fields it takes (borrow: who and until when). */
type ActionSpec = string | { action: string; body?: Record<string, unknown> };

/** The business's today (Asia/Bangkok unless set) moved by that many days: expiry dates stay past, near or far whenever the demo is loaded. */
function today(offsetDays: number): string {
  const d = new Date(`${businessToday(businessClock.now(), businessClock.timeZone)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString().slice(0, 10);
}

/**
 * Loads seed/demo/*.json in file-name order through the same service the API
 * uses, so demo rows pass the same validation as anything a user types.
 * A link is written {"$lookup": {"code": "C001"}} and resolved to that row's id;
 * "$actions": ["approve"] runs those workflow actions after the row is created
 * ({"action": "borrow", "body": {…}} for an action that takes fields);
 * a date written {"$today": -30} is the business's today moved by that many days.
 * A singleton's file (site settings) patches its one row instead of adding one.
 */
export async function loadSeedDir(service: EntityService, dir: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  for (const file of files) {
    const seed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SeedFile;
    const entity = service.entity(seed.entity);
    for (const [i, { $actions, $from, ...row }] of seed.rows.entries()) {
      try {
        const values = await resolveRow(service, entity, row);
        const created = $from
          ? await service.update(entity.name, Number((await fromSource(service, entity.name, $from as FromSpec)).id), values, systemContext, 'patch')
          : entity.kind === 'singleton' ? await patchSingleton(service, entity.name, values)
            : await service.create(entity.name, values, systemContext);
        // documents are posted through their actions, so a posted demo receipt has its stock movements like a real one
        for (const spec of ($actions as ActionSpec[] | undefined) ?? []) {
          const { action, body } = typeof spec === 'string' ? { action: spec, body: undefined } : spec;
          await service.runAction(entity.name, Number(created.id), action, body ? await resolveRow(service, entity, body) : {}, systemContext);
        }
      } catch (err) {
        throw new Error(`${file} row ${i}: ${(err as Error).message}`);
      }
    }
    counts[entity.name] = (counts[entity.name] ?? 0) + seed.rows.length;
  }
  return counts;
}

/** "$from": {"source": "purchase_order", "where": {"supplier_reference": "…"}, "qty": [80, 0]}: a draft made from that document, taking those quantities of its lines (0 leaves a line out). */
interface FromSpec { source: string; where: Record<string, unknown>; qty: number[] }

async function fromSource(service: EntityService, target: string, spec: FromSpec): Promise<Record<string, unknown>> {
  const id = await lookup(service, spec.source, spec.where);
  const source = await service.get(spec.source, id, systemContext);
  const lines = (source.items as { id: number }[]).map((l, i) => ({ source_line_id: l.id, qty: spec.qty[i] ?? 0 })).filter((l) => l.qty > 0);
  return createFrom(service, target, spec.source, { ids: [id], lines }, systemContext);
}

async function patchSingleton(service: EntityService, entity: string, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const query = service.parseQuery(service.entity(entity), { sort: 'id', limit: '1' }, systemContext);
  const { rows } = await service.list(entity, query, systemContext);
  return rows[0] ? service.update(entity, Number(rows[0].id), values, systemContext, 'patch') : service.create(entity, values, systemContext);
}

async function resolveRow(service: EntityService, entity: EntitySchema, row: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const field = entity.fields[key];
    if (isToday(value)) {
      out[key] = today(value.$today);
    } else if (field?.type === 'link' && isLookup(value)) {
      out[key] = await lookup(service, field.entity!, value.$lookup);
    } else if (field?.type === 'lines' && Array.isArray(value)) {
      const child = service.entity(field.entity!);
      out[key] = await Promise.all(value.map((line) => resolveRow(service, child, line as Record<string, unknown>)));
    } else {
      out[key] = value;
    }
  }
  return out;
}

async function lookup(service: EntityService, target: string, where: Record<string, unknown>): Promise<number> {
  const filter = Object.fromEntries(Object.entries(where).map(([k, v]) => [k, { _eq: v }]));
  const query = service.parseQuery(service.entity(target), { filter: JSON.stringify(filter), limit: '2' }, systemContext);
  const { rows } = await service.list(target, query, systemContext);
  if (rows.length !== 1) throw new Error(`$lookup ${target} ${JSON.stringify(where)} matched ${rows.length} rows, expected exactly one`);
  return Number(rows[0]!.id);
}
