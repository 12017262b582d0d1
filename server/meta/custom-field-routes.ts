import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/dialect-adapter.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { isAdministrator } from '../auth/admin-access.ts';
import { principalOf } from '../auth/principal.ts';
import { writeAudit, type AuditAction } from '../audit/audit-log.ts';
import { AppError } from '../errors/app-error.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { CUSTOM_FIELD_TYPES } from '../../engine/schema/custom-field-layer.ts';
import { addCustomField, fieldDefOf, listCustomFields, parseCustomFieldInput, removeCustomField, type CustomFieldRow } from './custom-fields.ts';
import { refreshOverrides } from './schema-overrides.ts';

function assertAdmin(ctx: RequestContext): void {
  if (!isAdministrator(ctx)) throw new AppError('FORBIDDEN', 'Only an administrator may add or remove custom fields');
}

/** The stored row and the field it merges into its entity's schema. */
function answer(r: CustomFieldRow) {
  return { ...r, field: fieldDefOf(r) };
}

/**
 * POST /api/custom_field, GET /api/custom_field(?entity=), DELETE /api/custom_field/{id}:
 * administrators only. Each change is applied to this instance's registry at once and
 * reaches the others through the version poll (server/ops/ops-routes.ts).
 */
export function registerCustomFieldRoutes(app: FastifyInstance, opts: { db: Database; registry: SchemaRegistry; contextOf: ContextOf }): void {
  const { db, registry, contextOf } = opts;
  const audit = async (ctx: RequestContext, ip: string, action: AuditAction, r: CustomFieldRow, message: string) => {
    await writeAudit(db.kysely, {
      action, userId: ctx.userId, username: principalOf(ctx)?.user.username ?? null, ip,
      entity: 'custom_field', recordId: r.id, changes: { entity: r.entity, name: r.name, type: r.type, active: r.active }, message,
    });
  };
  const tag = { tags: ['custom_field'] };

  app.get('/api/custom_field', {
    schema: { ...tag, summary: 'Custom fields (administrators)', querystring: { type: 'object', properties: { entity: { type: 'string', maxLength: 100 } }, additionalProperties: false } },
  }, async (request) => {
    const ctx = contextOf(request);
    assertAdmin(ctx);
    const { entity } = request.query as { entity?: string };
    const rows = await listCustomFields(db.kysely, entity);
    return { success: true, data: rows.map(answer), meta: { types: CUSTOM_FIELD_TYPES } };
  });

  app.post('/api/custom_field', {
    schema: {
      ...tag, summary: 'Add a field (a column, online) to an entity, or bring a removed one back with its data',
      body: {
        type: 'object',
        properties: {
          entity: { type: 'string' }, name: { type: 'string', description: 'a-z 0-9 _; cf_ is put in front when missing' },
          type: { enum: [...CUSTOM_FIELD_TYPES] }, label: { type: 'object', properties: { th: { type: 'string' }, en: { type: 'string' } } },
          required: { type: 'boolean' }, options: { type: 'array', description: 'enum only: [{value, label: {th, en}}] or plain strings' },
        },
      },
    },
    // the body is judged by parseCustomFieldInput so every problem answers VALIDATION_FAILED with field codes
    validatorCompiler: () => () => true,
  }, async (request, reply) => {
    const ctx = contextOf(request);
    assertAdmin(ctx);
    const input = parseCustomFieldInput(request.body, registry);
    const { row, reactivated } = await addCustomField(db, input, ctx.userId);
    await refreshOverrides(db, registry);
    await audit(ctx, request.ip, 'custom_field_add', row, `${reactivated ? 'restored' : 'added'} ${row.entity}.${row.name} (${row.type})`);
    return reply.status(reactivated ? 200 : 201).send({ success: true, data: answer(row), meta: { reactivated, version: registry.version } });
  });

  app.delete('/api/custom_field/:id', { schema: { ...tag, summary: 'Remove a custom field: it leaves the schema, its column and data stay' } }, async (request) => {
    const ctx = contextOf(request);
    assertAdmin(ctx);
    const raw = (request.params as { id: string }).id;
    const id = parseRecordId(raw);
    if (id === null) throw new AppError('NOT_FOUND', `There is no custom field ${raw}`, undefined, { entity: { th: 'ฟิลด์ที่เพิ่มเอง', en: 'Custom field' }, id: raw });
    const row = await removeCustomField(db, id);
    await refreshOverrides(db, registry);
    await audit(ctx, request.ip, 'custom_field_remove', row, `removed ${row.entity}.${row.name}; its column and data are kept`);
    return { success: true, data: answer(row), meta: { version: registry.version } };
  });
}
