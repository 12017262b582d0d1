/** Stock documents built through the HTTP API, for tests/stock. */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { Client, type Headers } from './security-fixtures.ts';
import { setSiteSettings } from './site-settings.ts';

type Row = Record<string, any>;
export interface Line { product_id: number; qty: number; price?: number; product_location_id?: number; lot_no?: string; expiry_date?: string; product_container_id?: number }

export class StockClient extends Client {
  async ok(p: Promise<LightMyRequestResponse>, status = 200): Promise<Row> {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  }

  async supplier(): Promise<number> {
    const code = this.next('S');
    return this.make('supplier', { code, supplier_type: 'individual', name_th: `ผู้จำหน่าย ${code}` });
  }

  /** A draft stock document (goods_receipt, delivery_order, internal_product_transfer) with its lines. */
  async draft(entity: string, header: Row, lines: Line[], as: Headers = this.admin): Promise<Row> {
    return this.ok(this.call('POST', `/api/${entity}`, as, { doc_date: '2026-11-20', ...header, items: lines }), 201);
  }

  action(entity: string, id: number, action: string, as: Headers = this.admin): Promise<LightMyRequestResponse> {
    return this.call('POST', `/api/${entity}/${id}/actions/${action}`, as);
  }

  async posted(entity: string, header: Row, lines: Line[], as: Headers = this.admin): Promise<Row> {
    const d = await this.draft(entity, header, lines, as);
    return this.ok(this.action(entity, d.id, 'approve', as));
  }

  /** Receives stock with a standalone goods receipt. */
  receive(inventory: number, lines: Line[], extra: Row = {}): Promise<Row> {
    return this.posted('goods_receipt', { inventory_id: inventory, ...extra }, lines);
  }

  /** Changes site settings (the singleton row) through the API, as an administrator would. */
  settings(values: Row): Promise<void> {
    return setSiteSettings(this.t.app, this.admin, values);
  }

  balance(query: Record<string, string | number>, as: Headers = this.admin): Promise<LightMyRequestResponse> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.call('GET', `/api/stock/balance?${qs}`, as);
  }

  /** On hand of one product in one inventory (0 when it has no row). */
  async onHand(product: number, inventory: number, asOf?: string): Promise<number> {
    const rows = await this.ok(this.balance({ product_id: product, inventory_id: inventory, ...(asOf ? { as_of: asOf } : {}) }));
    return (rows as unknown as Row[]).reduce((s, r) => s + r.qty_on_hand, 0);
  }
}
