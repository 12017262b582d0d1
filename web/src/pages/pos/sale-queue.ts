import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../core/http-client.ts';
import { offlineQueue, type QueuedSale } from './offline-queue.ts';

type Row = Record<string, any>;

/** No answer at all (the network is down), or a server that cannot answer now: try again later, never "refused". */
export function isUnreachable(err: unknown): boolean {
  const e = err as ApiError;
  return !(e instanceof ApiError) || e.code === 'NO_RESPONSE' || e.status === 401 || e.status === 408 || e.status === 429 || e.status >= 500;
}

/**
 * The terminal's queue of sales made offline (offline-queue.ts) and whether the register is online. Sent in the
 * order they were made when the network is back (the `online` event, and every 15 s while some wait), each with
 * its own Idempotency-Key; a sale the server refuses is kept, marked with the reason, for the cashier to see.
 */
export function useSaleQueue(terminalId: number | null, onSent: (sale: Row, queued: QueuedSale) => void) {
  const [items, setItems] = useState<QueuedSale[]>([]);
  const [online, setOnline] = useState(() => navigator.onLine);
  const flushing = useRef(false);
  const sent = useRef(onSent);
  sent.current = onSent;

  const refresh = useCallback(async () => {
    if (terminalId) setItems(await offlineQueue.all(terminalId));
  }, [terminalId]);

  const flush = useCallback(async () => {
    if (!terminalId || flushing.current) return;
    flushing.current = true;
    try {
      for (const q of await offlineQueue.all(terminalId)) {
        if (q.state !== 'waiting') continue;
        try {
          const r = await api.post<{ data: Row }>('/api/pos_order', q.body, { headers: { 'Idempotency-Key': q.key } });
          await offlineQueue.remove(q.key);
          setOnline(true);
          sent.current(r.data, q);
        } catch (err) {
          if (isUnreachable(err)) { setOnline(navigator.onLine && (err as ApiError).code !== 'NO_RESPONSE'); break; }
          await offlineQueue.put({ ...q, state: 'refused', error: (err as ApiError).message });
        }
      }
    } finally {
      flushing.current = false;
      await refresh();
    }
  }, [terminalId, refresh]);

  useEffect(() => {
    void refresh().then(() => (navigator.onLine ? flush() : undefined));
    const up = () => { setOnline(true); void flush(); };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    const timer = setInterval(() => { if (navigator.onLine) void flush(); }, 15_000);
    return () => { window.removeEventListener('online', up); window.removeEventListener('offline', down); clearInterval(timer); };
  }, [refresh, flush]);

  const enqueue = useCallback(async (q: QueuedSale) => { await offlineQueue.put(q); await refresh(); }, [refresh]);
  const dismiss = useCallback(async (key: string) => { await offlineQueue.remove(key); await refresh(); }, [refresh]);
  return { items, waiting: items.filter((q) => q.state === 'waiting'), refused: items.filter((q) => q.state === 'refused'), online, setOnline, enqueue, flush, dismiss };
}
