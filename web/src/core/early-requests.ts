/**
 * Start-up calls sent by the boot entry (web/src/boot.ts) before React and the
 * app's code have loaded, so the session answers, the screen's schema and a
 * list's first page travel while the browser still parses the app. The HTTP
 * client (http-client.ts `call`) takes an answer from here when the app makes
 * exactly the same call (method, path, query, body) with the same token, once,
 * and only for a short while; anything else goes to the network as usual.
 * No library here: this module is part of the boot chunk.
 */
export type EarlyMethod = 'get' | 'post';

export interface EarlyCall {
  method: EarlyMethod;
  path: string;
  json?: unknown;
  searchParams?: Record<string, string | number | undefined | null>;
}

interface Early { token: string; answer: Promise<Response>; at: number }

const early = new Map<string, Early>();
/** After this the app is surely past start-up; a late call is a new question and goes to the network. */
export const EARLY_TTL_MS = 15_000;

/** The query string the HTTP client sends for these parameters (empty values are left out). */
export function queryString(params: EarlyCall['searchParams']): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  return sp.toString();
}

export function callKey(method: string, path: string, query: string, json: unknown): string {
  return `${method.toUpperCase()} ${path}${query ? `?${query}` : ''} ${json === undefined ? '' : JSON.stringify(json)}`;
}

/** Sends a call now with the headers the HTTP client would send; its answer waits here for the app. */
export function sendEarly(call: EarlyCall, token: string, lang: string): Promise<Response> {
  const query = queryString(call.searchParams);
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': lang };
  if (call.json !== undefined) headers['Content-Type'] = 'application/json';
  const answer = fetch(`${call.path}${query ? `?${query}` : ''}`, {
    method: call.method.toUpperCase(), headers, body: call.json === undefined ? undefined : JSON.stringify(call.json),
  });
  answer.catch(() => undefined); // a failed early call is reported when the app takes it
  early.set(callKey(call.method, call.path, query, call.json), { token, answer, at: Date.now() });
  return answer;
}

/** The early answer of this call for this token, handed out once; null when there is none (or it is stale). */
export function takeEarly(key: string, token: string | null): Promise<Response> | null {
  const hit = early.get(key);
  if (!hit) return null;
  early.delete(key);
  return hit.token === token && Date.now() - hit.at < EARLY_TTL_MS ? hit.answer : null;
}

const listsAsked = new Set<string>();

/** The boot entry asks for the first page of the list at this path once its schema is here. */
export function noteEarlyList(path: string): void {
  listsAsked.add(path);
}

/** True once, if the boot entry took care of this list's first page (the shell then does not ask again). */
export function takeEarlyListNote(path: string): boolean {
  return listsAsked.delete(path);
}

/** Forgets every early answer (sign-in and sign-out: they belonged to the previous session). */
export function clearEarly(): void {
  early.clear();
  listsAsked.clear();
}

/** How many early answers nobody took yet (tests: every start-up call should be taken). */
export function pendingEarly(): string[] {
  return [...early.keys()];
}
