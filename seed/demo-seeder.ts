import { resolve } from 'node:path';
import type { DemoSeeder } from '../server/bootstrap.ts';
import { loadSeedDir } from './demo-seed.ts';
import { seedFinanceHistory } from './demo-finance.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { seedScanOver } from './demo-scans.ts';
import { seedPosWeek } from './demo-pos.ts';

/**
 * The demo data: the records of seed/demo, a year of sales and collection
 * history made through the document engine's own calls, an over-scanned
 * receipt, and the demo accounts. The start script (server/main.ts) hands it to `bootstrap`, so
 * the server itself does not import seed/.
 */
export const seedDemo: DemoSeeder = async (db, service, demoPassword, hashLogN) => {
  const rows = await loadSeedDir(service, resolve(import.meta.dirname, 'demo'));
  for (const [entity, n] of Object.entries(await seedFinanceHistory(service))) rows[entity] = (rows[entity] ?? 0) + n;
  // and a receipt scanned one past its count: the over-scan screen opens a real record
  for (const [entity, n] of Object.entries(await seedScanOver(service))) rows[entity] = (rows[entity] ?? 0) + n;
  // and a week of the shop: shifts and sales on both terminals
  for (const [entity, n] of Object.entries(await seedPosWeek(service))) rows[entity] = (rows[entity] ?? 0) + n;
  const accounts = await seedDemoAccounts(db, service, demoPassword, hashLogN);
  return { rows, usernames: accounts.usernames, generatedPassword: accounts.generatedPassword };
};
