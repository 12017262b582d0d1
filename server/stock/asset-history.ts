import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';

/**
 * Every action on an asset (borrow, return, modify, modification done,
 * retire) writes one `asset_movement` row in the action's transaction: who
 * borrowed it and until when, what was modified and what it cost, the note.
 * report_asset_borrow and report_modify_asset read these rows.
 */
export function installAssetHistory(service: EntityService): void {
  // the history's table (`"holds": "assetMovements"`) and the assets its asset_id links to; none: no asset history
  const history = service.registry.holder('assetMovements');
  if (!history) return;
  const assets = service.registry.heldLink('assetMovements', 'asset_id');
  service.onAction(async (trx, e) => {
    const a = e.after;
    if (e.action === 'borrow' && (a.holder_staff_id === null || a.holder_staff_id === undefined)) {
      throw new AppError('VALIDATION_FAILED', 'holder_staff_id: who borrows the asset is required', { fields: [{ field: 'holder_staff_id', code: 'required', message: 'is required to borrow' }] });
    }
    const now = new Date().toISOString();
    await trx.insertInto(history.name).values({
      movement_date: now, asset_id: e.id, action: e.action,
      staff_id: e.action === 'borrow' || e.action === 'return' ? (e.before.holder_staff_id ?? a.holder_staff_id ?? null) : null,
      due_date: e.action === 'borrow' ? (a.borrowed_until ?? null) : null,
      description: e.action === 'modify' || e.action === 'finish_modify' ? (a.modify_description ?? null) : null,
      // money is stored as satang
      cost: e.action === 'finish_modify' && a.modify_cost !== null && a.modify_cost !== undefined ? toScaledInteger(Number(a.modify_cost), 2) : null,
      inventory_id: a.inventory_id ?? null, note: (e.body.action_note as string | undefined) ?? null,
      created_at: now, updated_at: now, created_by: e.ctx.userId, updated_by: e.ctx.userId,
    }).execute();
    // what the asset says now: a returned asset has no holder, a finished modification leaves no open description
    const clear: Record<string, null> = { action_note: null };
    if (e.action === 'return') Object.assign(clear, { holder_staff_id: null, borrowed_until: null });
    if (e.action === 'finish_modify') Object.assign(clear, { modify_description: null, modify_cost: null });
    await trx.updateTable(assets).set(clear).where('id', '=', e.id).execute();
    e.recordWritten = true;
  }, (entity) => entity.name === assets);
}
