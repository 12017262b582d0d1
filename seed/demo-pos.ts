import type { EntityService } from '../server/crud/entity-service.ts';
import { systemContext } from '../server/crud/access-policy.ts';
import { makeSale } from '../server/pos/sale-routes.ts';
import { promotionsOn, rowsById } from '../server/pos/sale-pricing.ts';
import { baht, priceCart } from '../engine/pos/promotion-math.ts';
import { businessClock } from '../engine/documents/business-clock.ts';
import { businessToday } from '../engine/documents/business-time.ts';

type Row = Record<string, any>;

async function idOf(service: EntityService, entity: string, code: string): Promise<number> {
  const q = service.parseQuery(service.entity(entity), { filter: JSON.stringify({ code: { _eq: code } }), limit: '1', fields: 'id' }, systemContext);
  const { rows } = await service.list(entity, q, systemContext);
  if (!rows[0]) throw new Error(`demo POS: no ${entity} ${code}`);
  return Number(rows[0].id);
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** What each terminal sells in a day: [product code, qty] lines and how it is paid ("CASH" pays a round sum above the total). */
const BASKETS: Record<string, { lines: [string, number][]; pay: string }[]> = {
  'POS-LK-01': [
    { lines: [['P006', 2], ['P012', 1]], pay: 'CASH' },
    { lines: [['P012', 3]], pay: 'PROMPTPAY' },
    { lines: [['P006', 1], ['P001', 1]], pay: 'TRANSFER' },
  ],
  'POS-BP-01': [
    { lines: [['P010', 22]], pay: 'CASH' },
    { lines: [['P004', 2], ['P010', 5]], pay: 'PROMPTPAY' },
    { lines: [['P008', 1]], pay: 'CASH' },
  ],
};

/**
 * A week of the shop (issue 33 §7): on each of the seven days before the demo is loaded, each of the two
 * terminals (two sales channels) opens a shift with a float, makes its day's sales through the same call as the
 * register (prices, the running promotions PRO-POS-TAPE and PRO-POS-BOX, VAT included, stock out of the
 * terminal's inventory) and closes with the cash counted (one day 20 baht short). The business clock is set to
 * each day, so dates, numbers and the ledger follow it; the system columns (created_at) keep the real time.
 */
export async function seedPosWeek(service: EntityService): Promise<Record<string, number>> {
  const ctx = systemContext;
  const realNow = businessClock.now;
  const counts: Record<string, number> = { pos_shift: 0, pos_order: 0 };
  const methods: Record<string, number> = {};
  for (const code of ['CASH', 'TRANSFER', 'PROMPTPAY']) methods[code] = await idOf(service, 'payment_method', code);
  const products: Record<string, number> = {};
  for (const b of Object.values(BASKETS)) for (const s of b) for (const [code] of s.lines) products[code] ??= await idOf(service, 'product', code);
  const channels: Record<string, number | null> = {};
  for (const terminal of Object.keys(BASKETS)) channels[terminal] = Number((await service.get('pos', await idOf(service, 'pos', terminal), ctx)).sales_channel_id) || null;
  const today = businessToday(realNow(), businessClock.timeZone);
  try {
    for (let day = -7; day <= -1; day++) {
      const date = addDays(today, day);
      for (const [terminal, baskets] of Object.entries(BASKETS)) {
        businessClock.now = () => new Date(`${date}T02:00:00Z`);
        const shift = await service.create('pos_shift', { pos_id: await idOf(service, 'pos', terminal), opening_cash: 2000 }, ctx);
        counts.pos_shift!++;
        for (const [i, b] of baskets.entries()) {
          businessClock.now = () => new Date(`${date}T${String(3 + i * 3).padStart(2, '0')}:15:00Z`);
          const items = b.lines.map(([code, qty]) => ({ product_id: products[code]!, qty }));
          // paid in full; cash rounded up to the next 100, so the shift gives change
          const body = { pos_shift_id: shift.id, items };
          const total = await priceOf(service, items, date, channels[terminal]!);
          const amount = b.pay === 'CASH' ? Math.ceil(total / 100) * 100 : total;
          // a transfer carries its reference (the method requires one), as the cashier reads it off the customer's phone
          const reference = b.pay === 'CASH' ? {} : { reference: `${b.pay === 'TRANSFER' ? 'TR' : 'PP'}${date.replace(/-/g, '')}${terminal.slice(-2)}${i}` };
          await makeSale(service, 'pos_order', { ...body, payments: [{ payment_method_id: methods[b.pay]!, amount, ...reference }] }, `demo-${terminal}-${date}-${i}`, ctx);
          counts.pos_order!++;
        }
        businessClock.now = () => new Date(`${date}T11:00:00Z`);
        const expected = Number((await service.get('pos_shift', Number(shift.id), ctx)).opening_cash) + await cashTaken(service, Number(shift.id));
        await service.runAction('pos_shift', Number(shift.id), 'close', { counted_cash: day === -3 && terminal === 'POS-LK-01' ? expected - 20 : expected }, ctx);
      }
    }
  } finally {
    businessClock.now = realNow;
  }
  return counts;
}

/** The total the server will charge for the basket: the same arithmetic on the same products and promotions. */
async function priceOf(service: EntityService, items: { product_id: number; qty: number }[], date: string, channelId: number | null): Promise<number> {
  const products = await rowsById(service, 'product', items.map((i) => i.product_id));
  const promotions = await promotionsOn(service, 'promotion', date);
  const cart = priceCart(items.map((i) => ({ ...i, price: products.get(i.product_id)!.price as number })), promotions, { date, channelId });
  return baht(cart.total);
}

/** Cash a shift took so far: cash payments less change, of its posted sales. */
async function cashTaken(service: EntityService, shiftId: number): Promise<number> {
  const q = service.parseQuery(service.entity('pos_order'), { filter: JSON.stringify({ pos_shift_id: { _eq: shiftId }, status: { _eq: 'paid' } }), limit: '500' }, systemContext);
  let cents = 0;
  for (const o of (await service.list('pos_order', q, systemContext)).rows) {
    const whole = await service.get('pos_order', Number(o.id), systemContext);
    for (const p of whole.payments as Row[]) if (p.payment_type === 'cash') cents += Math.round(Number(p.amount) * 100);
    cents -= Math.round(Number(whole.change_amount) * 100);
  }
  return cents / 100;
}
