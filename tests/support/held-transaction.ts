import type { Database } from '../../server/db/dialect-adapter.ts';

/**
 * A transaction that inserts a row into `entry` (`who`) and stays open until
 * `release()`: it holds its connection, its row, and on SQLite the write lock.
 * Resolves once the row is written.
 */
export async function holdTransaction(db: Database, who: string): Promise<{ release: () => void; done: Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  let written!: () => void;
  const inside = new Promise<void>((r) => { written = r; });
  const done = db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('entry').values({ who }).execute();
    written();
    await held;
  });
  await inside;
  return { release, done };
}
