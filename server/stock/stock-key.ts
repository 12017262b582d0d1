import type { CreateTableBuilder } from 'kysely';

/**
 * The key stock is kept by, shared by the ledger, the balance batches and the
 * month-end snapshots (a module of its own so none of them imports another
 * for it).
 */
export interface StockKey {
  productId: number;
  inventoryId: number;
  locationId: number | null;
  lotNo: string | null;
  expiryDate: string | null;
  /** The product_container the stock is in (a pallet, a drum); null = none. */
  containerId: number | null;
}

/** The balance key: 0 and '' stand for "none" (a NULL in a primary key would make every such row distinct). */
export const BALANCE_KEY = ['product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date', 'container_id'] as const;

export const keyText = (k: StockKey): string => [k.productId, k.inventoryId, k.locationId ?? 0, k.lotNo ?? '', k.expiryDate ?? '', k.containerId ?? 0].join('|');

/**
 * The key's columns up to the expiry date, as the balance and the snapshots both store them
 * (the snapshots are kept without the container; the balance adds it).
 */
export function withKeyColumns<T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | 'product_id' | 'inventory_id' | 'location_id' | 'lot_no' | 'expiry_date'> {
  return table
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('inventory_id', 'integer', (c) => c.notNull())
    // 0 and '' stand for "none": a NULL in a primary key would make every such row distinct
    .addColumn('location_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lot_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'text', (c) => c.notNull().defaultTo(''));
}
