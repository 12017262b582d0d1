import type { EntitySchema, Holding } from './schema-types.ts';

export type { Holding };

/**
 * What an entity holds for the engine (schema key `holds`, docs/schema-format.md): the code of a feature finds the
 * table it owns by this key, never by the entity's name, and the entities around it through that table's links. Each
 * value names the link fields its holder must have, so the entities they point at (an account's role and user type,
 * a stock movement's product, warehouse and location…) are found from the schema too; the loader checks them.
 */
export const HOLDINGS = {
  /** the user accounts: who signs in (server/auth); `role_id` links to the roles, `user_type_id` to the user types */
  userAccounts: ['role_id', 'user_type_id'],
  /** the chart of accounts the general ledger posts to (server/ledger) */
  chartOfAccounts: [],
  /** the journal entries of the general ledger (server/ledger) */
  journalEntries: [],
  /** the stock ledger, one row per movement (server/stock); its links name the product, warehouse and location entities */
  stockMovements: ['product_id', 'inventory_id', 'product_location_id'],
  /** the pack barcodes printed and scanned (server/barcodes); `product_id` links to the products */
  packBarcodes: ['product_id'],
  /** the scans past what a document wanted (server/barcodes) */
  scanOvers: [],
  /** a user's alerts, counted on their socket (server/realtime) */
  alerts: [],
  /** an asset's history of moves (server/stock/asset-history.ts); `asset_id` links to the assets */
  assetMovements: ['asset_id'],
  /** a product's attribute lines (server/attributes): lines of the product; `attribute_id` and `option_id` link to the attributes and their options */
  productAttributes: ['attribute_id', 'option_id'],
} as const satisfies Record<Holding, readonly string[]>;
export const HOLDING_NAMES = Object.keys(HOLDINGS) as Holding[];

/** The entity that declares `"holds": what`, if the set has one (a test may load a few schemas). */
export function holderIn(all: Iterable<EntitySchema>, what: Holding): EntitySchema | undefined {
  for (const e of all) if (e.holds === what) return e;
  return undefined;
}

/** The entity a link field of `entity` points at; a clear error when the schema has no such link. */
export function linkTarget(entity: EntitySchema, field: string): string {
  const f = Object.hasOwn(entity.fields, field) ? entity.fields[field] : undefined;
  if (f?.type !== 'link' || !f.entity) throw new Error(`${entity.name}.${field} is not a link field, and "holds": "${entity.holds}" needs it to be one (docs/schema-format.md)`);
  return f.entity;
}

/** The error of a feature that needs a holder the schemas do not declare. */
export function missingHolder(what: Holding): Error {
  return new Error(`No schema declares "holds": "${what}"; the feature that needs it cannot run (docs/schema-format.md, "holds")`);
}
