/**
 * What a cache of read answers needs from a database: which tables a read statement depends on,
 * and whether any of them changed since a point in time. A dialect that cannot tell offers none
 * (Database.changes is then undefined) and nothing is kept.
 */
export interface ChangeTracker {
  /**
   * A point in this connection's change history to compare with later, or null when no answer
   * read now may be kept (the tracker is not watching every table yet). Call it before a read
   * whose answer is to be kept, and again before serving a kept answer: it also takes in the
   * changes committed since the last call (by this process or any other).
   */
  mark(): number | null;
  /**
   * The tables `sql` reads, or null when its answer may change while none of the watched tables
   * does (a virtual table, a function such as random() or date('now'), a table not watched).
   */
  reads(sql: string, parameters: readonly unknown[]): readonly string[] | null;
  /** True when none of `tables` changed after `at` (a value of `mark`), and none is being changed by a transaction still open. */
  unchangedSince(tables: readonly string[], at: number): boolean;
}
