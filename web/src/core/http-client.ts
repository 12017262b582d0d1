import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import type { FieldError } from '../../../engine/errors/error-catalogue.ts';
import { ApiError, CANNOT_CONNECT } from './api-error.ts';
import { callKey, queryString, takeEarly } from './early-requests.ts';
import { errorText, localizeFieldErrors, type TextLang, type TextParams } from '../../../engine/errors/error-texts.ts';

export { ApiError, CANNOT_CONNECT };

export interface Envelope<T> {
  success: boolean;
  data: T;
  meta?: Record<string, unknown>;
}

let tokenSource: () => string | null = () => null;
let languageSource: () => TextLang | null = () => null;

/**
 * The i18n module tells the client the reader's language: requests say it in
 * Accept-Language, and error messages are rendered in it from the error code
 * (engine/errors/error-texts.ts). Without a source the server's words are kept.
 */
export function setLanguageSource(source: () => TextLang | null): void {
  languageSource = source;
}

/** The session module tells the client where the current token lives. */
export function setTokenSource(source: () => string | null): void {
  tokenSource = source;
}

export function createHttp(fetchImpl?: typeof fetch): KyInstance {
  return ky.create({
    timeout: false,
    retry: 0,
    headers: { Accept: 'application/json' },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    hooks: {
      beforeRequest: [
        (request) => {
          const token = tokenSource();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
          const lang = languageSource();
          if (lang) request.headers.set('Accept-Language', lang);
        },
      ],
    },
  });
}

let http = createHttp();

/** Tests swap the transport; the app never does. */
export function useFetchForTests(fetchImpl: typeof fetch): void {
  http = createHttp(fetchImpl);
}

const hasThai = (s: string) => /[\u0E00-\u0E7F]/.test(s);

/** The ApiError of an answer with an error status, its message in the reader's language from the error code. */
async function errorOfResponse(response: Response): Promise<ApiError> {
  const status = response.status;
  let body: unknown = null;
  try { body = await response.clone().json(); } catch { /* not JSON */ }
  const e = (body as { error?: { code?: string; message?: string; params?: TextParams; details?: { fields?: Array<FieldError | string> } } } | null)?.error;
  const lang = languageSource();
  const code = e?.code ?? `HTTP_${status}`;
  const serverMessage = e?.message ?? (body as { message?: string } | null)?.message ?? (response.statusText || `HTTP ${status}`);
  const rendered = (lang && errorText(code, e?.params, lang)) || serverMessage;
  // validation errors list {field, code, message}; a conflict lists just the field names
  const fields = (Array.isArray(e?.details?.fields) ? e!.details!.fields! : []).map((f) =>
    typeof f === 'string' ? { field: f, code, message: rendered } : f);
  // a 4xx without field problems reads as the server wrote it (asked in the reader's language, it answers in it):
  // its words name the detail (the row, the limit, the reason) that the code's general text leaves out; with field
  // problems the code's text heads them and the screens name each field by its label (core/error-detail.ts)
  const asWritten = status >= 400 && status < 500 && !fields.some((f) => typeof f === 'object' && f.field) && typeof e?.message === 'string' && e.message !== '';
  const message = asWritten && lang === 'th' && !hasThai(e!.message!) ? rendered : asWritten ? e!.message! : rendered;
  return new ApiError(status, message, code, lang ? localizeFieldErrors(fields, lang) : fields, e?.details, e?.params);
}

/** Turns anything a call can throw into an ApiError; no response at all is 408 "Cannot connect to the server". */
export async function toApiError(err: unknown): Promise<ApiError> {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPError) return errorOfResponse(err.response);
  const lang = languageSource();
  return new ApiError(408, (lang && errorText('NO_RESPONSE', {}, lang)) || CANNOT_CONNECT, 'NO_RESPONSE');
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface CallOptions {
  json?: unknown;
  searchParams?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** Extra request headers (a sale's Idempotency-Key). */
  headers?: Record<string, string>;
}

/** One JSON call. Resolves with the parsed body, throws ApiError. */
export async function call<T = unknown>(method: Method, path: string, opts: CallOptions = {}): Promise<T> {
  const o: Options = { method, signal: opts.signal, ...(opts.headers ? { headers: opts.headers } : {}) };
  if (opts.json !== undefined) o.json = opts.json;
  const query = opts.searchParams ? queryString(opts.searchParams) : '';
  if (query) o.searchParams = new URLSearchParams(query);
  try {
    // the boot entry may have sent this very call already (early-requests.ts)
    const early = takeEarly(callKey(method, path, query, opts.json), tokenSource());
    const res = early ? await early : await http(path, o);
    if (!res.ok) throw await errorOfResponse(res);
    const text = await res.text();
    return (text ? JSON.parse(text) : null) as T;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw await toApiError(err);
  }
}

/**
 * A file answer (PDF, CSV, XLSX): its bytes and the name the server suggests. Throws ApiError.
 * With `json` it is a POST carrying that body (a selection of ids or many report
 * parameters outgrow a URL). As the spec's blob downloads, the token also goes in x-access-token.
 */
export async function download(path: string, searchParams: Record<string, string | number | undefined | null> = {}, json?: unknown): Promise<{ blob: Blob; fileName: string | null; headers: Headers }> {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(searchParams)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  const token = tokenSource();
  const headers: Record<string, string> = { Accept: '*/*', ...(token ? { 'x-access-token': token } : {}) };
  try {
    const res = await http(path, json === undefined ? { method: 'get', searchParams: sp, headers } : { method: 'post', searchParams: sp, json, headers });
    const disposition = res.headers.get('content-disposition') ?? '';
    const m = /filename\*=UTF-8''([^;]+)|filename="([^"]+)"/i.exec(disposition);
    const fileName = m ? decodeURIComponent(m[1] ?? m[2]!) : null;
    return { blob: await res.blob(), fileName, headers: res.headers };
  } catch (err) {
    throw await toApiError(err);
  }
}

/** Past this many characters of query a URL may be cut by a proxy or refused; the download goes as a POST instead. */
export const URL_QUERY_LIMIT = 2000;

/** A download whose parameters fit in a URL goes by GET; a longer one (a selection of ids, many report parameters) by POST with a JSON body. */
export function downloadQuery(path: string, params: Record<string, string | number | undefined | null>): ReturnType<typeof download> {
  const kept = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  return new URLSearchParams(kept as Record<string, string>).toString().length > URL_QUERY_LIMIT ? download(path, {}, kept) : download(path, kept);
}

/** Hands a blob to the browser as a file to save. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const api = {
  get: <T = unknown>(path: string, opts?: CallOptions) => call<T>('get', path, opts),
  post: <T = unknown>(path: string, json?: unknown, opts?: CallOptions) => call<T>('post', path, { ...opts, json: json ?? {} }),
  put: <T = unknown>(path: string, json?: unknown) => call<T>('put', path, { json }),
  patch: <T = unknown>(path: string, json?: unknown) => call<T>('patch', path, { json }),
  delete: <T = unknown>(path: string) => call<T>('delete', path),
};
