/** The business time zone setting: read and checked at start, used by "$NOW" date defaults. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../server/config/app-config.ts';
import { businessTimeZone, setBusinessTimeZone } from '../../server/config/business-time-zone.ts';
import { resolveDefault } from '../../server/crud/record-values.ts';
import type { FieldDef } from '../../engine/schema/schema-types.ts';

const env = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/bo-config-test-unused' };
const dateNow = { type: 'date', default: '$NOW', label: { th: 'วันที่', en: 'Date' } } as FieldDef;

describe('business time zone', () => {
  afterEach(() => {
    vi.useRealTimers();
    setBusinessTimeZone('Asia/Bangkok');
  });

  it('BUSINESS_TIME_ZONE defaults to Asia/Bangkok and refuses unknown zones at start', () => {
    expect(readConfig(env).businessTimeZone).toBe('Asia/Bangkok');
    expect(readConfig({ ...env, BUSINESS_TIME_ZONE: 'Asia/Ho_Chi_Minh' }).businessTimeZone).toBe('Asia/Ho_Chi_Minh');
    expect(() => readConfig({ ...env, BUSINESS_TIME_ZONE: 'Bangkok' })).toThrow(/not a time zone/);
    expect(businessTimeZone()).toBe('Asia/Bangkok');
  });

  it('a "$NOW" date made at 17:30 UTC on 31 December is 1 January in Bangkok', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T17:30:00Z'));
    expect(resolveDefault(dateNow, null)).toBe('2027-01-01');
    setBusinessTimeZone('UTC');
    expect(resolveDefault(dateNow, null)).toBe('2026-12-31');
    // a datetime stays an instant
    expect(resolveDefault({ ...dateNow, type: 'datetime' }, null)).toBe('2026-12-31T17:30:00.000Z');
  });
});
