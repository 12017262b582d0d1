import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';

/**
 * The stock engine's entities, found through the schemas: the ledger (`"holds": "stockMovements"`) and the
 * entities its `product_id`, `inventory_id` and `product_location_id` link to. The balance, day and snapshot
 * tables are the engine's own and keep their names; the ledger is a schema's, so its name is read, not written.
 */
export interface StockEntities {
  ledger: string;
  product: string;
  inventory: string;
  location: string;
}

export function stockEntities(registry: SchemaRegistry): StockEntities {
  return {
    ledger: registry.held('stockMovements'),
    product: registry.heldLink('stockMovements', 'product_id'),
    inventory: registry.heldLink('stockMovements', 'inventory_id'),
    location: registry.heldLink('stockMovements', 'product_location_id'),
  };
}
