import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';
import { AppError } from '../errors/app-error.ts';
import { chartOf } from './journal-writer.ts';
import chart from './thai-sme-chart.json' with { type: 'json' };

/** One account of the shipped chart: its heading by code (the ids exist only once created). */
interface ChartRow { code: string; name_th: string; name_en: string; account_type: string; parent: string | null; is_group: boolean; role?: string; dbd_line?: string }

/**
 * A fresh database gets the Thai SME chart of accounts (TFRS for NPAEs headings, every posting role
 * assigned: docs/accounting.md), created through the service like any master data so an administrator
 * edits it afterwards. Only when the table is empty: a chart someone changed is never filled in again.
 */
export async function ensureChartOfAccounts(service: EntityService): Promise<number> {
  const existing = await service.db.kysely.selectFrom(chartOf(service.registry)).select(['id', 'code', 'role']).execute();
  if (existing.length) return addMissingRoles(service, existing);
  const ids = new Map<string, number>();
  for (const r of chart as ChartRow[]) {
    const row = await service.create(chartOf(service.registry), {
      code: r.code, name_th: r.name_th, name_en: r.name_en, account_type: r.account_type, is_group: r.is_group,
      parent_id: r.parent ? ids.get(r.parent) ?? null : null, role: r.role ?? null, dbd_line: r.dbd_line ?? null,
    }, systemContext);
    ids.set(r.code, Number(row.id));
  }
  return ids.size;
}

/**
 * A chart made before a release that added a posting role (`production_transfer`: finished goods received from
 * production) gets that role's shipped account, under its shipped heading when the chart still has it, so the
 * documents that post to it keep posting. Only when no account holds the role and the account's code is free:
 * an administrator who gave the code to something else chooses the account (ACCOUNT_ROLE_MISSING says so).
 */
async function addMissingRoles(service: EntityService, existing: Array<{ id: unknown; code: unknown; role: unknown }>): Promise<number> {
  const roles = new Set(existing.map((a) => a.role).filter((r) => r !== null && r !== undefined));
  const byCode = new Map(existing.map((a) => [String(a.code), Number(a.id)]));
  let added = 0;
  for (const r of chart as ChartRow[]) {
    if (!r.role || roles.has(r.role) || byCode.has(r.code)) continue;
    try {
      const row = await service.create(chartOf(service.registry), {
        code: r.code, name_th: r.name_th, name_en: r.name_en, account_type: r.account_type, is_group: r.is_group,
        parent_id: r.parent ? byCode.get(r.parent) ?? null : null, role: r.role, dbd_line: r.dbd_line ?? null,
      }, systemContext);
      byCode.set(r.code, Number(row.id));
      added++;
    } catch (err) {
      // another instance starting at the same moment added it first
      if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
    }
  }
  return added;
}
