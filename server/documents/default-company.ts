import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { companySetting, defaultsFromCompany, softDeleteColumn } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { isEmpty } from '../crud/record-values.ts';
import { principalOf } from '../auth/principal.ts';
import { siteSettings } from '../settings/site-settings.ts';

type Row = Record<string, unknown>;

/**
 * Schema key `defaultFrom: "company"`: a new record (a quotation, an order, a
 * receipt …) that names no issuing company takes, in this order:
 * 1. the caller's company, when their user type limits them to exactly one;
 * 2. the site's default company (the `setting_site` link to the company
 *    entity, `default_company_id`), when the caller may use it;
 * 3. the only company of the business, when there is just one.
 * Otherwise a required company answers 400 VALIDATION_FAILED (code
 * `company_choice`: several companies and no default, choose one, in place of
 * the plain "is required"); an optional one stays empty. Runs before the body is judged, so the documents' API
 * contract (`{customer_id, doc_date, vat_type, items}`) needs no company.
 */
export function installDefaultCompany(service: EntityService): void {
  service.onCreateDefaults(async (k, entity, body, ctx) => {
    const fields = Object.entries(entity.fields).filter(([name, f]) => defaultsFromCompany(f) && f.type === 'link' && isEmpty(body[name]));
    const unfilled: FieldError[] = [];
    for (const [name, f] of fields) {
      const id = await defaultCompany(k, service, service.entity(f.entity!), ctx);
      if (id !== null) body[name] = id;
      // a required company is reported with the body's other problems; an optional one stays empty
      else if (f.required) unfilled.push({ field: name, code: 'company_choice', message: 'choose the company: there are several and no default one (site setting default_company_id)' });
    }
    return unfilled;
  });
}

/**
 * GET /api/<entity>/defaults, for entities with a `defaultFrom` field: the values a new record would take
 * from the server if it left them empty (`{"your_company_id": 3}`; a field without one is left out), so a
 * new form shows the issuing company it will get instead of an empty picker. Needs create on the entity.
 */
export function registerNewRecordDefaults(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all()) {
    if (!Object.values(entity.fields).some(defaultsFromCompany)) continue;
    app.get(`/api/${entity.name}/defaults`, async (request) => {
      const ctx = contextOf(request);
      const e = service.entity(entity.name);
      service.policy.assertAllowed(ctx, e, 'create');
      const data: Row = {};
      for (const [name, f] of Object.entries(e.fields)) {
        if (!defaultsFromCompany(f) || f.type !== 'link') continue;
        const id = await defaultCompany(service.db.kysely, service, service.entity(f.entity!), ctx);
        if (id !== null) data[name] = id;
      }
      return { success: true, data };
    });
  }
}

async function defaultCompany(k: Kysely<any>, service: EntityService, company: EntitySchema, ctx: RequestContext): Promise<number | null> {
  const p = principalOf(ctx);
  const allowed = p?.userType?.is_limit_company_to_access ? p.user.branch_company : null;
  if (allowed?.length === 1) return allowed[0]!;
  const usable = (id: number) => allowed === null || allowed.includes(id);
  const site = service.registry.siteSettings();
  const setting = site ? companySetting(site, company.name) : null;
  if (setting) {
    const v = (await siteSettings(k, service.registry))[setting];
    const id = v === null || v === undefined ? NaN : Number(v);
    if (Number.isSafeInteger(id) && usable(id)) return id;
  }
  const soft = softDeleteColumn(company);
  let q = k.selectFrom(company.name).select('id').orderBy('id').limit(2);
  if (soft) q = q.where(soft, '=', 0);
  const rows = (await q.execute()) as Row[];
  return rows.length === 1 && usable(Number(rows[0]!.id)) ? Number(rows[0]!.id) : null;
}
