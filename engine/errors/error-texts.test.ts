/**
 * Every error code and validation keyword reads in Thai (issue 12 §1): a new
 * catalogue code, a new ajv keyword or a new field check in server/ fails here
 * until engine/errors/error-texts.ts has its th and en text.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_CATALOGUE } from './error-catalogue.ts';
import { ERROR_TEXTS, FIELD_TEXTS, errorText, fieldErrorText, languageOf } from './error-texts.ts';
import { VALIDATION_CODES } from '../validation/entity-validator.ts';

const THAI = /[\u0E00-\u0E7F]/;
const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n) ? [p] : [];
  });
}
const code = [...sources(join(root, 'server')), ...sources(join(root, 'engine')), ...sources(join(root, 'web/src'))]
  .map((p) => readFileSync(p, 'utf8')).join('\n');

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('error texts', () => {
  it.each(Object.keys(ERROR_CATALOGUE))('catalogue code %s has a Thai and an English text', (c) => {
    const t = ERROR_TEXTS[c];
    expect(t, `ERROR_TEXTS needs ${c}`).toBeDefined();
    expect(t!.th).toMatch(THAI);
    expect(t!.en.length).toBeGreaterThan(0);
  });

  it.each(VALIDATION_CODES.map((c) => [c]))('validation code %s has a Thai text', (c) => {
    expect(FIELD_TEXTS[c]?.th, `FIELD_TEXTS needs ${c}`).toMatch(THAI);
  });

  it('every field code the server and web write (code: \'…\') has a Thai text', () => {
    const found = new Set([...code.matchAll(/\{ field: [^}]*?code: '([a-z_-]+)'/g)].map((m) => m[1]!));
    expect(found.size).toBeGreaterThan(5);
    for (const c of found) expect(FIELD_TEXTS[c]?.th, `FIELD_TEXTS needs "${c}"`).toMatch(THAI);
  });

  it('every reason an AppError gives has its own text', () => {
    const found = [...code.matchAll(/new AppError\('([A-Z_]+)'[^\n]*?reason: '([a-z_]+)'/g)].map((m) => `${m[1]}.${m[2]}`);
    expect(found.length).toBeGreaterThan(0);
    for (const k of found) expect(ERROR_TEXTS[k]?.th, `ERROR_TEXTS needs ${k}`).toMatch(THAI);
  });

  it('Thai and English use the same parameters', () => {
    for (const t of [...Object.values(ERROR_TEXTS), ...Object.values(FIELD_TEXTS)]) {
      expect(placeholders(t.th)).toEqual(placeholders(t.en));
      if (t.detailed) expect(placeholders(t.detailed.th)).toEqual(placeholders(t.detailed.en));
    }
  });

  it('renders parameters, label objects in the reader\'s language, and falls back when a parameter is missing', () => {
    const entity = { th: 'สาเหตุของเสีย', en: 'Cause of waste' };
    expect(errorText('CONFLICT', { entity, fields: { th: 'รหัส', en: 'code' } }, 'th')).toBe('มีสาเหตุของเสียอื่นใช้รหัสนี้แล้ว');
    expect(errorText('CONFLICT', { entity, fields: { th: 'รหัส', en: 'code' } }, 'en')).toBe('Another Cause of waste already has this code');
    expect(errorText('CONFLICT', {}, 'th')).toBe('ค่านี้ถูกใช้โดยข้อมูลอื่นแล้ว');
    expect(errorText('NOT_FOUND', { entity: { th: 'ใบวางบิล', en: 'Billing note' }, id: 3 }, 'th')).toBe('ไม่พบใบวางบิล 3 หรือคุณไม่มีสิทธิ์ดู');
    expect(errorText('UNAUTHORIZED', { reason: 'bad_credentials' }, 'th')).toBe('ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง');
    expect(errorText('NO_SUCH_CODE', {}, 'th')).toBeNull();
    expect(fieldErrorText({ code: 'maxLength', message: 'x', params: { limit: 20 } }, 'th')).toBe('ต้องยาวไม่เกิน 20 ตัวอักษร');
    expect(fieldErrorText({ code: 'type', message: 'x', params: { type: 'integer' } }, 'th')).toBe('ต้องเป็นจำนวนเต็ม');
    expect(fieldErrorText({ code: 'something_new', message: 'as sent' }, 'th')).toBe('as sent');
  });

  it('reads the first language of Accept-Language', () => {
    expect(languageOf('th-TH,th;q=0.9,en;q=0.5')).toBe('th');
    expect(languageOf('en-US,en')).toBe('en');
    expect(languageOf(undefined)).toBeNull();
  });
});
