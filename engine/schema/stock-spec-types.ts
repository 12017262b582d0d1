/** The stock keys of a document schema (`document.stock`, `document.scan`): docs/schema-format.md. */

/**
 * How a stock document moves stock when posted. `in` receives each line into `inventory`, `out` takes it
 * out (split over the balance rows earliest expiry first), `transfer` does both: out of `inventory`,
 * into `toInventory`. A line's own `location` field (a field of the lines entity with the header's
 * name) overrides the header's for `in` and `out`; it must belong to the inventory it is used with.
 */
export interface StockSpec {
  direction: 'in' | 'out' | 'transfer';
  /** The header link to the inventory (for a transfer, the one stock leaves); required to post. */
  inventory: string;
  /** The header link to a location in that inventory. */
  location?: string;
  /** A transfer's destination inventory and location. */
  toInventory?: string;
  toLocation?: string;
  /** Each line may name its own inventory, in a line field named like `inventory` (a receipt where the site allows it). */
  lineInventory?: boolean;
  /**
   * With `lineInventory`: the boolean site setting that allows it. While off, a line's inventory must be the
   * header's; while on, it must be one the user may use (is_limit_inventory_to_access).
   */
  lineInventorySetting?: string;
  /** `in`: the line field that is the unit cost (satang, as money). */
  unitCost?: string;
  /** `in`: lines of products tracked by lot or expiry need them before posting (while is_enable_product_expired is on). */
  checkLots?: boolean;
  /**
   * `out`: what books stock before this document takes it (site setting stock_balance_sub_booked_table_type
   * `so`): the open lines of this source in these states, less what posted documents of this kind took of
   * them, in the source's `inventory` field. With the setting `do`, drafts of this document book instead.
   */
  books?: { source: string; states: string[]; inventory: string };
}

/**
 * A document scanned into. `in`: a pack barcode must be printed (not yet received) and is received into the
 * document's inventory when it posts; `out`: a pack must be in stock, is refused while an earlier expiry is
 * left (scan_with_oldest_expire_product) and is delivered when the document posts. Cancelling a posted
 * document puts its packs back.
 */
export interface ScanSpec {
  direction: 'in' | 'out';
  /** A boolean site setting: the scan screen shows only scanned lines, and scans may not add products. */
  displayOnlySetting: string;
  /** A boolean site setting: every save counts the document as scanned in full. */
  autoScanSetting?: string;
  /** The column of `barcodes` that records the document a pack was posted with. */
  packField?: string;
}
