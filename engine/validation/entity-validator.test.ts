import { describe, expect, it } from 'vitest';
import { createAjv, createEntityValidator } from './entity-validator.ts';
import type { EntitySchema } from '../schema/schema-types.ts';
import type { WriteMode } from './entity-json-schema.ts';

const l = (en: string) => ({ th: en, en });

const partner: EntitySchema = {
  name: 'partner', label: l('Partner'), kind: 'master', titleField: 'name',
  fields: {
    code: { type: 'string', label: l('Code'), required: true, maxLength: 10, pattern: '^[A-Z][A-Z0-9]*$' },
    name: { type: 'string', label: l('Name'), required: true },
    kind: { type: 'enum', label: l('Kind'), required: true, default: 'person', options: [{ value: 'person', label: l('Person') }, { value: 'company', label: l('Company') }] },
    tax_id: { type: 'tax_id', label: l('Tax ID'), requiredIf: { kind: { _eq: 'company' } } },
    email: { type: 'email', label: l('Email') },
    website: { type: 'url', label: l('Website') },
    phone: { type: 'phone', label: l('Phone') },
    colour: { type: 'color', label: l('Colour') },
    visits: { type: 'integer', label: l('Visits'), min: 0, max: 100 },
    credit: { type: 'money', label: l('Credit'), min: 0 },
    rate: { type: 'decimal', label: l('Rate'), scale: 2, precision: 5 },
    since: { type: 'date', label: l('Since') },
    score: { type: 'integer', label: l('Score'), readOnly: true },
    active: { type: 'boolean', label: l('Active') },
  },
};

const ajv = createAjv();
const validators = new Map<WriteMode, ReturnType<typeof createEntityValidator>>();
function validate(body: unknown, mode: WriteMode = 'create', current?: Record<string, unknown>) {
  if (!validators.has(mode)) validators.set(mode, createEntityValidator(ajv, partner, mode, () => undefined));
  return validators.get(mode)!(body, current);
}

const valid = { code: 'P1', name: 'สมชาย ใจดี', kind: 'person' };

/** The one error about `field`, so each test states exactly what a person reads. */
function errorFor(body: Record<string, unknown>, field: string, mode: WriteMode = 'create') {
  const errors = validate(body, mode);
  const mine = errors.filter((e) => e.field === field);
  expect(mine, JSON.stringify(errors)).toHaveLength(1);
  return mine[0]!;
}

describe('entity validator', () => {
  it('accepts a valid body, with every optional type filled', () => {
    expect(validate(valid)).toEqual([]);
    expect(validate({
      ...valid, kind: 'company', tax_id: '0105536000313', email: 'a.b@example.co.th', website: 'https://example.co.th/x?y=1',
      phone: '+66 2-123 4567', colour: '#1A2b3C', visits: 100, credit: 1234.56, rate: 999.99, since: '2024-02-29', active: false,
    })).toEqual([]);
  });

  it('says "is required" for a missing required field on create, not on patch', () => {
    expect(errorFor({ code: 'P1' }, 'name')).toEqual({ field: 'name', code: 'required', message: 'is required' });
    expect(validate({ code: 'P2' }, 'patch')).toEqual([]);
  });

  it('a field with a default is not required on create', () => {
    expect(validate({ code: 'P1', name: 'x' })).toEqual([]);
  });

  it('says "is required" for a whitespace-only required string', () => {
    expect(errorFor({ ...valid, name: '   \t ' }, 'name')).toEqual({ field: 'name', code: 'required', message: 'is required' });
    expect(errorFor({ name: ' ' }, 'name', 'patch')).toMatchObject({ code: 'required', message: 'is required' });
  });

  it('refuses null or blank for a required field as "required", not as a type or format problem', () => {
    expect(errorFor({ ...valid, name: null }, 'name')).toEqual({ field: 'name', code: 'required', message: 'is required' });
    expect(errorFor({ ...valid, name: '  ' }, 'name')).toEqual({ field: 'name', code: 'required', message: 'is required' });
    // an empty code with a pattern is missing, not "not in the expected format"
    expect(errorFor({ ...valid, code: '' }, 'code')).toEqual({ field: 'code', code: 'required', message: 'is required' });
  });

  it('email: format and 320 characters', () => {
    expect(errorFor({ ...valid, email: 'not-an-email' }, 'email')).toEqual({ field: 'email', code: 'email', message: 'is not a valid email', params: { format: 'email' } });
    const long = `${'a'.repeat(64)}@${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}.th`;
    expect(long.length).toBeGreaterThan(320);
    expect(errorFor({ ...valid, email: long }, 'email').message).toBe('must be at most 320 characters');
    expect(validate({ ...valid, email: null })).toEqual([]);
  });

  it('url: format and 2048 characters', () => {
    expect(errorFor({ ...valid, website: 'example.com' }, 'website').message).toBe('is not a valid URL');
    const long = `https://example.co.th/${'a'.repeat(2048)}`;
    expect(errorFor({ ...valid, website: long }, 'website').message).toBe('must be at most 2048 characters');
  });

  it('pattern and maxLength', () => {
    expect(errorFor({ ...valid, code: 'p-1' }, 'code')).toEqual({ field: 'code', code: 'pattern', message: 'is not in the expected format' });
    expect(errorFor({ ...valid, code: 'P1234567890' }, 'code').message).toBe('must be at most 10 characters');
    expect(errorFor({ ...valid, name: 'x'.repeat(256) }, 'name').message).toBe('must be at most 255 characters');
  });

  it('phone and colour formats', () => {
    expect(errorFor({ ...valid, phone: 'call me' }, 'phone').code).toBe('pattern');
    expect(errorFor({ ...valid, colour: 'red' }, 'colour').code).toBe('pattern');
  });

  it('enum lists the options', () => {
    expect(errorFor({ ...valid, kind: 'robot' }, 'kind')).toEqual({ field: 'kind', code: 'enum', message: 'must be one of: person, company', params: { allowed: 'person, company' } });
  });

  it('integer: whole numbers within min and max', () => {
    expect(errorFor({ ...valid, visits: 1.5 }, 'visits').message).toBe('must be a whole number');
    expect(errorFor({ ...valid, visits: '3' }, 'visits').message).toBe('must be a whole number');
    expect(errorFor({ ...valid, visits: 101 }, 'visits').message).toBe('must be at most 100');
    expect(errorFor({ ...valid, visits: -1 }, 'visits').message).toBe('must be at least 0');
  });

  it('decimal and money: scale and precision', () => {
    expect(errorFor({ ...valid, rate: 1.234 }, 'rate')).toEqual({ field: 'rate', code: 'x-scale', message: 'must have at most 2 decimal places', params: { limit: 2 } });
    expect(errorFor({ ...valid, credit: 10.005 }, 'credit').message).toBe('must have at most 2 decimal places');
    expect(errorFor({ ...valid, rate: 1000 }, 'rate').code).toBe('maximum'); // precision 5, scale 2: at most 999.99
    expect(errorFor({ ...valid, credit: -0.01 }, 'credit').message).toBe('must be at least 0');
    expect(validate({ ...valid, credit: 0.3, rate: 1.1 })).toEqual([]);
    // judged on the number as sent: 0.1 + 0.2 arrives as 0.30000000000000004, and more decimals than the column keeps are refused, never rounded
    expect(errorFor({ ...valid, credit: 0.1 + 0.2 }, 'credit').code).toBe('x-scale');
    expect(errorFor({ ...valid, credit: 12.3400000001 }, 'credit').code).toBe('x-scale');
    expect(validate({ ...valid, rate: 999.99 })).toEqual([]);
  });

  it('tax id and date formats', () => {
    expect(errorFor({ ...valid, tax_id: '0105536000314' }, 'tax_id').code).toBe('thai-tax-id');
    expect(errorFor({ ...valid, since: '2024-02-30' }, 'since').message).toBe('is not a valid date (YYYY-MM-DD, a real day in the years 1000 to 9999)');
    expect(errorFor({ ...valid, since: '0000-01-01' }, 'since').code).toBe('date');
    expect(validate({ ...valid, since: '2024-02-29' })).toEqual([]);
    expect(errorFor({ ...valid, since: '21/11/2024' }, 'since').code).toBe('date');
  });

  it('requiredIf: required only when its condition holds, also against the stored row', () => {
    expect(errorFor({ ...valid, kind: 'company' }, 'tax_id')).toEqual({ field: 'tax_id', code: 'required', message: 'is required' });
    // a wrong value gets its own message, once, not "is required" as well
    expect(errorFor({ ...valid, kind: 'company', tax_id: '123' }, 'tax_id').code).toBe('thai-tax-id');
    expect(validate({ ...valid, kind: 'person' })).toEqual([]);
    // a patch that only changes the kind: the stored row has no tax id
    expect(validate({ kind: 'company' }, 'patch', { ...valid, tax_id: null })).toEqual([{ field: 'tax_id', code: 'required', message: 'is required' }]);
    expect(validate({ kind: 'company' }, 'patch', { ...valid, tax_id: '0105536000313' })).toEqual([]);
  });

  it('an unknown property is an unknown_field error', () => {
    expect(errorFor({ ...valid, colour_name: 'red' }, 'colour_name')).toEqual({ field: 'colour_name', code: 'unknown_field', message: 'is not a field of this record' });
  });

  it.each(['id', 'created_at', 'created_by', 'updated_at', 'updated_by'])('system field %s is read_only', (f) => {
    expect(errorFor({ ...valid, [f]: 1 }, f)).toEqual({ field: f, code: 'read_only', message: 'cannot be written' });
  });

  it('a readOnly schema field is read_only too', () => {
    expect(errorFor({ ...valid, score: 5 }, 'score').code).toBe('read_only');
  });

  it('reports every problem at once', () => {
    const fields = validate({ code: 'x', kind: 'robot', email: 'no', id: 3 }).map((e) => e.field).sort();
    expect(fields).toEqual(['code', 'email', 'id', 'kind', 'name']);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'text', 3]) expect(validate(body)).toEqual([{ field: '', code: 'type', message: 'the body must be a JSON object' }]);
  });
});
