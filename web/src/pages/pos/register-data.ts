/**
 * What the register needs to keep selling without the network (issue 51 §3): the terminals, payment methods,
 * promotions, the seller and a copy of the products with their prices, read when the register starts and kept
 * in the browser (localStorage), so a scan is found on the device when the server cannot be reached.
 */
import { api } from '../../core/http-client.ts';
import type { CartProduct } from './register-cart.ts';

const CACHE = 'pos.cache.v1';
/** At most this many products are copied to the device (four pages of the list's 500). */
const MAX_PRODUCTS = 2000;
const FIELDS = 'id,code,name_th,price,barcode,vat_type,unit';

type Row = Record<string, any>;
export interface RegisterCache { terminals?: Row[]; methods?: Row[]; promotions?: Row[]; products?: CartProduct[]; companies?: Record<string, Row>; shifts?: Record<string, Row | null> }

export function readCache(): RegisterCache {
  try { return JSON.parse(localStorage.getItem(CACHE) ?? '{}') as RegisterCache; } catch { return {}; }
}

export function writeCache(patch: Partial<RegisterCache>): void {
  try { localStorage.setItem(CACHE, JSON.stringify({ ...readCache(), ...patch })); } catch { /* a full storage keeps the older copy */ }
}

/** The active products, page by page, up to MAX_PRODUCTS. */
export async function loadProducts(): Promise<CartProduct[]> {
  const out: CartProduct[] = [];
  for (let page = 1; out.length < MAX_PRODUCTS; page++) {
    const r = await api.get<{ data: CartProduct[] }>('/api/product', { searchParams: { filter: JSON.stringify({ is_active: { _eq: true } }), fields: FIELDS, limit: 500, page, sort: 'id' } });
    out.push(...r.data);
    if (r.data.length < 500) break;
  }
  return out;
}

/** A scan or a typed text against the device's copy: the barcode, then the code, then names and codes containing it. */
export function findCached(products: CartProduct[], text: string): CartProduct[] {
  const t = text.trim().toLowerCase();
  if (!t) return [];
  const byBarcode = products.filter((p) => String(p.barcode ?? '').toLowerCase() === t);
  if (byBarcode.length) return byBarcode;
  const byCode = products.filter((p) => p.code.toLowerCase() === t);
  if (byCode.length) return byCode;
  return products.filter((p) => p.code.toLowerCase().includes(t) || p.name_th.toLowerCase().includes(t)).slice(0, 10);
}

/** Bills put aside (hold) and taken back (recall), per terminal, on the device. */
export interface HeldBill { id: string; at: string; lines: unknown[] }
export const heldBills = {
  read: (terminalId: number): HeldBill[] => { try { return JSON.parse(localStorage.getItem(`pos.held.${terminalId}`) ?? '[]') as HeldBill[]; } catch { return []; } },
  write: (terminalId: number, bills: HeldBill[]) => localStorage.setItem(`pos.held.${terminalId}`, JSON.stringify(bills)),
};

/** The favourite products of a terminal (its quick keys), set up at the register with the star of a line. */
export const favourites = {
  read: (terminalId: number): number[] => { try { return JSON.parse(localStorage.getItem(`pos.favs.${terminalId}`) ?? '[]') as number[]; } catch { return []; } },
  write: (terminalId: number, ids: number[]) => localStorage.setItem(`pos.favs.${terminalId}`, JSON.stringify(ids)),
};

/**
 * Makes the register an installable app that opens without the network: the manifest, and the service worker
 * (web/public/pos-sw.js) told which built files this page loaded, so it keeps them.
 */
export function installRegisterApp(): void {
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/pos.webmanifest';
    document.head.appendChild(link);
  }
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/pos-sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    const keep = performance.getEntriesByType('resource').map((r) => r.name).filter((u) => u.startsWith(`${location.origin}/assets/`));
    reg.active?.postMessage({ keep });
  }).catch(() => undefined);
}
