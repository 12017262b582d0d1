import type { StockClient } from './stock-fixtures.ts';

/** A shop for POS tests: a company with an inventory, a sales channel, terminal POS1 selling from it, and cash. */
export async function posShop(c: StockClient): Promise<{ company: number; inv: number; channel: number; pos: number; cash: number }> {
  const company = await c.company();
  const inv = await c.inventory(company);
  const channel = await c.make('sales_channels', { code: 'SHOP', name_th: 'หน้าร้าน', channel_type: 'pos', your_company_id: company });
  const pos = await c.make('pos', { code: 'POS1', name: 'เครื่อง 1', your_company_id: company, inventory_id: inv, sales_channel_id: channel });
  const cash = await c.make('payment_method', { code: 'CASH', name_th: 'เงินสด', payment_type: 'cash' });
  return { company, inv, channel, pos, cash };
}
