import type { ReportDef, ReportParam } from '../../engine/reports/report-types.ts';
import { AppError } from '../errors/app-error.ts';
import { businessTodayNow } from '../stock/business-days.ts';

export type ParamValue = string | number | boolean;
export type ParamValues = Record<string, ParamValue | null>;

/** Query keys every report takes besides its parameters. */
export const CONTROL_KEYS = ['page', 'limit', 'sort', 'format', 'lang'];
export const MAX_REPORT_LIMIT = 1000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** What a parameter expects, in both languages, for the error a person reads. */
const EXPECTED: Record<ReportParam['type'], { th: string; en: string }> = {
  date: { th: 'วันที่ในรูปแบบ YYYY-MM-DD เช่น 2026-11-01', en: 'a date YYYY-MM-DD, e.g. 2026-11-01' },
  month: { th: 'เดือนในรูปแบบ YYYY-MM เช่น 2026-11', en: 'a month YYYY-MM, e.g. 2026-11' },
  year: { th: 'ปี ค.ศ. 4 หลัก เช่น 2026', en: 'a four-digit year, e.g. 2026' },
  integer: { th: 'จำนวนเต็ม', en: 'a whole number' },
  boolean: { th: 'true หรือ false', en: 'true or false' },
  link: { th: 'รหัสระเบียน (ตัวเลข)', en: 'a record id (a number)' },
  enum: { th: 'ค่าหนึ่งในรายการที่กำหนด', en: 'one of the listed values' },
  text: { th: 'ข้อความไม่เกิน 200 ตัวอักษร', en: 'a text of at most 200 characters' },
};

export function badParam(p: { name: string; label: { th: string; en: string } }, expected: { th: string; en: string }): AppError {
  return new AppError('INVALID_QUERY', `${p.name} must be ${expected.en}`, { parameter: p.name }, { reason: 'report_parameter', parameter: p.label, expected });
}

const validDate = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return DATE.test(s) && !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
};

function parseOne(p: ReportParam, raw: string): ParamValue {
  const fail = () => badParam(p, p.type === 'enum' ? { th: `ค่าหนึ่งใน ${p.options!.map((o) => o.value).join(', ')}`, en: `one of ${p.options!.map((o) => o.value).join(', ')}` } : EXPECTED[p.type]);
  switch (p.type) {
    case 'date': if (!validDate(raw)) throw fail(); return raw;
    case 'month': if (!MONTH.test(raw)) throw fail(); return raw;
    case 'year': { if (!/^\d{4}$/.test(raw) || Number(raw) < 1900) throw fail(); return Number(raw); }
    case 'integer': case 'link': {
      if (!/^-?\d{1,15}$/.test(raw)) throw fail();
      const n = Number(raw);
      if (p.type === 'link' && n <= 0) throw fail();
      if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max)) {
        throw badParam(p, { th: `จำนวนเต็มระหว่าง ${p.min ?? '-'} ถึง ${p.max ?? '-'}`, en: `a whole number from ${p.min ?? '-'} to ${p.max ?? '-'}` });
      }
      return n;
    }
    case 'boolean': if (!['true', 'false', '1', '0'].includes(raw)) throw fail(); return raw === 'true' || raw === '1';
    case 'enum': if (!p.options!.some((o) => o.value === raw)) throw fail(); return raw;
    case 'text': if (raw.length > 200) throw fail(); return raw;
  }
}

function defaultOf(p: ReportParam): ParamValue | null {
  const d = p.default;
  if (d === undefined) return null;
  const today = businessTodayNow();
  if (d === 'today') return today;
  if (d === 'this_month') return today.slice(0, 7);
  if (d === 'this_year') return Number(today.slice(0, 4));
  if (d === 'start_of_month') return `${today.slice(0, 7)}-01`;
  if (d === 'start_of_year') return `${today.slice(0, 4)}-01-01`;
  return typeof d === 'string' ? parseOne(p, d) : d;
}

/**
 * The report's parameters from a query string: each checked against its
 * type (a bad one answers 400 INVALID_QUERY naming it, in Thai), defaults
 * filled, required ones present; a key the report does not take is refused.
 */
export function parseParams(def: ReportDef, query: Record<string, unknown>, extraKeys: string[] = []): ParamValues {
  const known = new Set([...def.parameters.map((p) => p.name), ...CONTROL_KEYS, ...extraKeys]);
  for (const k of Object.keys(query)) {
    if (!known.has(k)) {
      throw new AppError('INVALID_QUERY', `${def.name} takes no parameter "${k}"; it takes ${def.parameters.map((p) => p.name).join(', ') || 'none'}`,
        { parameter: k }, { reason: 'report_parameter_unknown', parameter: k });
    }
  }
  const out: ParamValues = {};
  for (const p of def.parameters) {
    const raw = query[p.name];
    if (Array.isArray(raw)) throw badParam(p, EXPECTED[p.type]);
    out[p.name] = raw === undefined || raw === '' ? defaultOf(p) : parseOne(p, String(raw));
    if (out[p.name] === null && p.required) {
      throw new AppError('INVALID_QUERY', `${p.name} is required`, { parameter: p.name }, { reason: 'report_parameter_required', parameter: p.label });
    }
  }
  const from = out.date_from;
  const to = out.date_to;
  if (typeof from === 'string' && typeof to === 'string' && from > to) {
    throw new AppError('INVALID_QUERY', 'date_from must not be after date_to', { parameter: 'date_from' }, { reason: 'report_date_order' });
  }
  return out;
}

/** page and limit (limit up to 1000: the entity lists' 500 cap does not apply to reports). */
export function parsePaging(query: Record<string, unknown>): { limit: number; offset: number } {
  const num = (k: string, d: number, max: number) => {
    const raw = query[k];
    if (raw === undefined || raw === '') return d;
    if (typeof raw !== 'string' || !/^\d{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      throw new AppError('INVALID_QUERY', `${k} must be a whole number from 1 to ${max}`, { parameter: k }, { reason: 'report_paging', parameter: k, max });
    }
    return Number(raw);
  };
  const limit = num('limit', 100, MAX_REPORT_LIMIT);
  const page = num('page', 1, 1_000_000);
  return { limit, offset: (page - 1) * limit };
}
