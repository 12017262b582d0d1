import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { entityJsonSchema } from '../../engine/validation/entity-json-schema.ts';
import { ERROR_CATALOGUE } from '../../engine/errors/error-catalogue.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { CUSTOM_FIELD_TYPES } from '../../engine/schema/custom-field-layer.ts';
import { DECLARED_SCREENS } from '../../engine/schema/declared-screens.ts';
import { portalEntity, screenEntity } from '../../engine/schema/screen-loader.ts';

type Obj = Record<string, unknown>;

/** OpenAPI 3.1 accepts JSON Schema 2020-12, so request bodies are the same schemas the validator compiles. */
function clean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(clean);
  if (schema && typeof schema === 'object') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(schema)) if (!k.startsWith('x-')) out[k] = clean(v);
    return out;
  }
  return schema;
}

const listParams = [
  { name: 'filter', in: 'query', schema: { type: 'string' }, description: 'JSON filter, Directus grammar: {"field":{"_eq":value}}, _and/_or, dotted paths through links' },
  { name: 'sort', in: 'query', schema: { type: 'string' }, description: 'Comma-separated fields, "-" for descending: -created_at,code' },
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'search', in: 'query', schema: { type: 'string' }, description: 'Text searched in the searchable fields' },
  { name: 'fields', in: 'query', schema: { type: 'string' }, description: 'Comma-separated fields to return; dotted paths read through links' },
  { name: 'meta', in: 'query', schema: { type: 'string', enum: ['total_count'] } },
];

const errorResponse = {
  description: 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

export function buildOpenApi(registry: SchemaRegistry): Obj {
  const paths: Obj = {};
  const schemas: Obj = {
    Error: {
      type: 'object',
      properties: {
        success: { const: false },
        error: {
          type: 'object',
          properties: { code: { enum: Object.keys(ERROR_CATALOGUE) }, message: { type: 'string' }, details: {} },
          required: ['code', 'message'],
        },
      },
    },
  };
  const resolve = (n: string) => registry.get(n);
  for (const e of registry.all() as EntitySchema[]) {
    const tag = e.name;
    schemas[`${e.name}_create`] = clean(entityJsonSchema(e, 'create', resolve));
    schemas[`${e.name}_patch`] = clean(entityJsonSchema(e, 'patch', resolve));
    const body = (kind: string) => ({ required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${e.name}_${kind}` } } } });
    const ok = { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { success: { const: true }, data: {}, meta: {} } } } } };
    const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }];
    const readOnly = e.kind === 'lines';
    paths[`/api/${e.name}`] = {
      get: { tags: [tag], summary: `List ${e.labelPlural?.en ?? e.label.en}`, parameters: listParams, responses: { 200: ok, 400: errorResponse } },
      ...(readOnly ? {} : { post: e.document?.sale ? saleOperation(e, tag, ok) : { tags: [tag], summary: `Create a ${e.label.en}`, requestBody: body('create'), responses: { 201: ok, 400: errorResponse, 409: errorResponse } } }),
    };
    paths[`/api/${e.name}/{id}`] = {
      get: { tags: [tag], summary: `Read one ${e.label.en}`, parameters: idParam, responses: { 200: ok, 404: errorResponse } },
      ...(readOnly || e.kind === 'ledger' ? {} : {
        put: { tags: [tag], summary: `Replace a ${e.label.en}`, parameters: idParam, requestBody: body('create'), responses: { 200: ok, 400: errorResponse, 404: errorResponse, 409: errorResponse } },
        patch: { tags: [tag], summary: `Change some fields of a ${e.label.en}`, parameters: idParam, requestBody: body('patch'), responses: { 200: ok, 400: errorResponse, 404: errorResponse, 409: errorResponse } },
        delete: { tags: [tag], summary: e.softDelete ? `Archive a ${e.label.en} (soft delete)` : `Delete a ${e.label.en}`, parameters: idParam, responses: { 200: ok, 404: errorResponse, 409: errorResponse } },
      }),
    };
    if (e.kind === 'document') {
      const lang = { name: 'lang', in: 'query', schema: { enum: ['th', 'en'], default: 'th' } };
      paths[`/api/${e.name}/{id}/pdf`] = {
        get: { tags: [tag], summary: `Print a ${e.label.en} as PDF (print flag; X-Print-Count header)`, parameters: [...idParam, lang, { name: 'be', in: 'query', schema: { enum: ['0', '1'] } }, { name: 'copies', in: 'query', description: 'original,copy: those copies in order, each marked ต้นฉบับ/สำเนา', schema: { type: 'string' } }], responses: { 200: { description: 'The PDF', content: { 'application/pdf': {} } }, 403: errorResponse, 404: errorResponse } },
      };
      if (e.document?.sale?.refunds) {
        const items = { type: 'array', minItems: 1, items: { type: 'object', required: ['line_id', 'qty'], additionalProperties: false, properties: { line_id: { type: 'integer', minimum: 1 }, qty: { type: 'number', exclusiveMinimum: 0 } } } };
        paths[`/api/${e.name}/{id}/return`] = {
          post: {
            tags: [tag], summary: `Return part of a posted ${e.label.en}: stock of those quantities back, money back by its payments (cash first); all that is left is the whole refund (edit flag and the refund's permission key)`,
            parameters: idParam, requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['items'], additionalProperties: false, properties: { items, refund_reason: { type: 'string', maxLength: 1000 } } } } } },
            responses: { 200: ok, 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
          },
        };
      }
      if (e.print?.promptpay) {
        const qr = { type: 'object', properties: { success: { type: 'boolean' }, data: { type: 'object', properties: { payload: { type: 'string' }, amount: { type: 'number' }, id_type: { enum: ['tax_id', 'mobile'] } } } } };
        paths[`/api/${e.name}/{id}/promptpay`] = {
          get: { tags: [tag], summary: `PromptPay QR payload (EMVCo) of the amount still due on a ${e.label.en} (view flag)`, parameters: idParam, responses: { 200: { description: 'The payload', content: { 'application/json': { schema: qr } } }, 404: errorResponse, 409: errorResponse } },
        };
      }
      const addresses = { oneOf: [{ type: 'string', maxLength: 320 }, { type: 'array', items: { type: 'string', maxLength: 320 }, maxItems: 20 }] };
      paths[`/api/${e.name}/{id}/email`] = {
        post: { tags: [tag], summary: `Email a ${e.label.en} as a PDF attachment (email flag)`, parameters: idParam, requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['to'], additionalProperties: false, properties: { to: addresses, cc: addresses, subject: { type: 'string', maxLength: 200 }, message: { type: 'string', maxLength: 5000 }, lang: { enum: ['th', 'en'] } } } } } }, responses: { 200: ok, 400: errorResponse, 403: errorResponse, 404: errorResponse, 503: errorResponse } },
      };
      // e-Tax (schema key document.etax): the ETDA XML, the PDF/A-3 with it, and the e-Tax e-mail (server/etax)
      if (e.document?.etax) {
        const cancellation = { name: 'cancellation', in: 'query', schema: { enum: ['0', '1'] } };
        paths[`/api/${e.name}/{id}/etax.xml`] = {
          get: { tags: [tag], summary: `A ${e.label.en} as ETDA e-Tax XML, type ${e.document.etax.typeCode} (print flag; signed XAdES-BES when configured; cancellation=1: its cancellation note)`, parameters: [...idParam, cancellation], responses: { 200: { description: 'The XML', content: { 'application/xml': {} } }, 403: errorResponse, 404: errorResponse, 409: errorResponse } },
        };
        paths[`/api/${e.name}/{id}/etax.pdf`] = {
          get: { tags: [tag], summary: `A ${e.label.en} as PDF/A-3 with its e-Tax XML attached (print flag)`, parameters: [...idParam, lang, cancellation], responses: { 200: { description: 'The PDF/A-3', content: { 'application/pdf': {} } }, 403: errorResponse, 404: errorResponse, 409: errorResponse } },
        };
        paths[`/api/${e.name}/{id}/etax-email`] = {
          post: { tags: [tag], summary: `Email a ${e.label.en} as e-Tax: the PDF/A-3 attached, cc the Revenue Department's address when ETAX_RD_EMAIL is set (email flag)`, parameters: idParam, requestBody: ((paths[`/api/${e.name}/{id}/email`] as Obj).post as Obj).requestBody, responses: { 200: ok, 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 503: errorResponse } },
        };
      }
      if (e.document?.lines && (e.document.from?.length || registry.all().some((t) => t.document?.from?.some((f) => f.source === e.name)))) {
        paths[`/api/${e.name}/{id}/related`] = {
          get: { tags: [tag], summary: `The documents a ${e.label.en} was made from, those made from it, and the create-from screens it can open now (read in the caller's scope)`, parameters: idParam, responses: { 200: ok, 403: errorResponse, 404: errorResponse } },
        };
      }
      // issue 50 §6: the entries a posting document wrote (server/ledger/document-journal-routes.ts), with the books in the set
      const journal = registry.holder('journalEntries');
      if (e.document?.journal && e.workflow && registry.holder('chartOfAccounts') && journal) {
        paths[`/api/${e.name}/{id}/journal`] = {
          get: { tags: [tag], summary: `The journal entries a ${e.label.en} wrote (its posting and any reversal), each line with its account code and name (view on the document and on ${journal.name})`, parameters: idParam, responses: { 200: ok, 403: errorResponse, 404: errorResponse } },
        };
      }
      for (const spec of e.document?.from ?? []) {
        const lines = { type: 'array', maxItems: 1000, items: { type: 'object', required: ['source_line_id'], properties: { source_line_id: { type: 'integer', minimum: 1 }, qty: { type: 'number', exclusiveMinimum: 0 }, amount: { type: 'number', exclusiveMinimum: 0 } } } };
        paths[`/api/${e.name}/from/${spec.source}`] = {
          get: { tags: [tag], summary: `What is still open on ${spec.source} lines for a ${e.label.en} (the create-from screen)`, parameters: [{ name: 'ids', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9]+(,[0-9]+)*$' } }], responses: { 200: ok, 400: errorResponse, 403: errorResponse, 404: errorResponse } },
          post: { tags: [tag], summary: `Create a ${e.label.en} from ${spec.source} documents (what is open, or the lines asked for)`, requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'integer', minimum: 1 } }, lines, values: { type: 'object' } } } } } }, responses: { 201: ok, 400: errorResponse, 404: errorResponse, 409: errorResponse } },
        };
      }
    }
  }
  // the declared screens' entities (schemas/screens/screens.json): the collection summary reads the bills, the portal lists them
  const bills = screenEntity(DECLARED_SCREENS, 'collection_summary');
  const portal = portalEntity(DECLARED_SCREENS);
  if (bills && registry.get(bills)) {
    const date = { type: 'string', format: 'date' };
    paths['/api/report/collection_summary'] = {
      get: {
        tags: ['report'], summary: 'Billed, received and outstanding per customer, aged by due date (read with the billing notes\' rights)',
        parameters: [{ name: 'from', in: 'query', schema: date }, { name: 'to', in: 'query', schema: date }, { name: 'customer_id', in: 'query', schema: { type: 'integer', minimum: 1 } }],
        responses: { 200: { description: 'OK' }, 400: errorResponse, 403: errorResponse },
      },
    };
  }
  if (portal && registry.get(portal)) {
    const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
    paths['/api/customerpage/{customerId}/bill/{id}/pdf'] = {
      get: {
        tags: [portal], summary: 'The customer portal\'s view-only copy of a billing note (marked COPY, not a print: view rights, no print counter)',
        parameters: [id('customerId'), id('id'), { name: 'lang', in: 'query', schema: { enum: ['th', 'en'], default: 'th' } }, { name: 'be', in: 'query', schema: { enum: ['0', '1'] } }],
        responses: { 200: { description: 'The PDF, inline', content: { 'application/pdf': {} } }, 400: errorResponse, 404: errorResponse },
      },
    };
  }
  addExtraPaths(paths, registry);
  return {
    openapi: '3.1.0',
    info: { title: 'Back office API', version: '0.1.0', description: 'Generated from the schema files in schemas/. Answers are {success, data, meta?} or {success:false, error:{code,message,details?}}.' },
    paths,
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    security: [{ bearer: [] }],
  };
}

/** Routes that are not per entity but belong with the schemas: product attributes and custom fields. */
function addExtraPaths(paths: Obj, registry: SchemaRegistry): void {
  const ok = { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { success: { const: true }, data: {}, meta: {} } } } } };
  const values = registry.holder('productAttributes');
  if (values?.parent) {
    const tag = registry.heldLink('productAttributes', 'attribute_id');
    paths[`/api/${values.parent.entity}/attribute/list`] = {
      get: {
        tags: [tag], summary: 'Active attributes with their active options and, per option, the ids of the products that carry it',
        parameters: [{ name: 'except_product_ids', in: 'query', schema: { type: 'string' }, description: 'JSON list of product ids to leave out: [1,2]' }],
        responses: { 200: ok, 400: errorResponse, 403: errorResponse },
      },
    };
  }
  const field = {
    type: 'object', required: ['entity', 'name', 'type', 'label'],
    properties: {
      entity: { type: 'string' }, name: { type: 'string', description: 'a-z 0-9 _; cf_ is put in front when missing' },
      type: { enum: [...CUSTOM_FIELD_TYPES] }, label: { type: 'object', properties: { th: { type: 'string' }, en: { type: 'string' } }, required: ['th'] },
      required: { type: 'boolean' }, options: { type: 'array', description: 'enum only: [{value, label: {th, en}}] or plain strings' },
    },
  };
  paths['/api/custom_field'] = {
    get: { tags: ['custom_field'], summary: 'Custom fields (administrators)', parameters: [{ name: 'entity', in: 'query', schema: { type: 'string' } }], responses: { 200: ok, 403: errorResponse } },
    post: {
      tags: ['custom_field'], summary: 'Add a field (a column, online) to an entity, or bring a removed one back with its data',
      requestBody: { required: true, content: { 'application/json': { schema: field } } },
      responses: { 200: ok, 201: ok, 400: errorResponse, 403: errorResponse, 409: errorResponse },
    },
  };
  paths['/api/custom_field/{id}'] = {
    delete: {
      tags: ['custom_field'], summary: 'Remove a custom field: it leaves the schema, its column and data stay',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }], responses: { 200: ok, 403: errorResponse, 404: errorResponse },
    },
  };
}

/** A sale's create (document.sale, server/pos/): its own contract, priced and posted by the server, once per Idempotency-Key. */
function saleOperation(e: EntitySchema, tag: string, ok: object): object {
  const sale = e.document!.sale!;
  const id = { type: 'integer', minimum: 1 };
  const amount = { oneOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'string', pattern: '^\\d+(\\.\\d+)?$' }] };
  return {
    tags: [tag],
    summary: `Make a ${e.label.en}: priced by the server (products, promotions, VAT included) and posted at once; a repeated Idempotency-Key answers the first (200)`,
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{8,100}$' } }],
    requestBody: { required: true, content: { 'application/json': { schema: {
      type: 'object', required: [sale.shift, 'items', sale.payments], additionalProperties: false,
      properties: {
        [sale.shift]: id,
        items: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'object', required: ['product_id', 'qty'], additionalProperties: false, properties: { product_id: id, qty: amount } } },
        [sale.payments]: { type: 'array', minItems: 1, items: { type: 'object', required: ['payment_method_id', 'amount'], additionalProperties: false, properties: { payment_method_id: id, amount } } },
        invoice_type: { const: 'full' }, buyer_name: { type: 'string' }, buyer_tax_id: { type: 'string' }, buyer_branch_code: { type: 'string' }, buyer_address: { type: 'string' },
      },
    } } } },
    responses: { 200: ok, 201: ok, 400: errorResponse, 403: errorResponse, 409: errorResponse },
  };
}
