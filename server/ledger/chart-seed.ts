import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';
import chart from './thai-sme-chart.json' with { type: 'json' };

/** One account of the shipped chart: its heading by code (the ids exist only once created). */
interface ChartRow { code: string; name_th: string; name_en: string; account_type: string; parent: string | null; is_group: boolean; role?: string; dbd_line?: string }

/**
 * A fresh database gets the Thai SME chart of accounts (TFRS for NPAEs headings, every posting role
 * assigned: docs/accounting.md), created through the service like any master data so an administrator
 * edits it afterwards. Only when the table is empty: a chart someone changed is never filled in again.
 */
export async function ensureChartOfAccounts(service: EntityService): Promise<number> {
  const existing = await service.db.kysely.selectFrom('account').select('id').limit(1).executeTakeFirst();
  if (existing) return 0;
  const ids = new Map<string, number>();
  for (const r of chart as ChartRow[]) {
    const row = await service.create('account', {
      code: r.code, name_th: r.name_th, name_en: r.name_en, account_type: r.account_type, is_group: r.is_group,
      parent_id: r.parent ? ids.get(r.parent) ?? null : null, role: r.role ?? null, dbd_line: r.dbd_line ?? null,
    }, systemContext);
    ids.set(r.code, Number(row.id));
  }
  return ids.size;
}
