import { TOAST_LIFE_MS, NOTIFICATION_LIFE_MS } from './ui-constants.ts';

export interface ToastMessage {
  severity: 'success' | 'info' | 'warn' | 'error';
  summary: string;
  detail?: string;
  life: number;
  /** 'toast' (3 s) or 'notification' (4.5 s, top-right offset 24). */
  channel: 'toast' | 'notification';
}

type Listener = (m: ToastMessage) => void;
const listeners = new Set<Listener>();
type ClearListener = (severity?: ToastMessage['severity']) => void;
const clearers = new Set<ClearListener>();

export function onClearToasts(l: ClearListener): () => void {
  clearers.add(l);
  return () => { clearers.delete(l); };
}

/** Removes the toasts on screen (of one severity): a successful save takes the earlier red errors away. */
export function clearToasts(severity?: ToastMessage['severity']): void {
  for (const l of clearers) l(severity);
}

export function onToast(l: Listener): () => void {
  listeners.add(l);
  return () => { listeners.delete(l); };
}

export function toast(severity: ToastMessage['severity'], summary: string, detail?: string): void {
  for (const l of listeners) l({ severity, summary, detail, life: TOAST_LIFE_MS, channel: 'toast' });
}

export function notify(severity: ToastMessage['severity'], summary: string, detail?: string): void {
  for (const l of listeners) l({ severity, summary, detail, life: NOTIFICATION_LIFE_MS, channel: 'notification' });
}
