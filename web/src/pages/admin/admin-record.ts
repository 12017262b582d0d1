import type { TFunction } from 'i18next';
import type { NavigateFunction } from 'react-router-dom';
import { api } from '../../core/http-client.ts';
import { toast } from '../../core/toast-bus.ts';
import { errorText } from './admin-common.tsx';

/**
 * The load and save steps the admin editors (roles, user types, accounts) share: an id that is not a record id,
 * or a 404, is "missing" (the editor shows Not found); any other failure is the editor's error.
 */
export function loadAdminRecord<T = Record<string, unknown>>(entity: string, id: string, on: { row: (row: T) => void; missing: () => void; error: (e: unknown) => void }, idPattern = /^[1-9][0-9]*$/): void {
  if (!idPattern.test(id)) { on.missing(); return; }
  api.get<{ data: T }>(`/api/${entity}/${id}`).then((r) => on.row(r.data), (e) => { if ((e as { status?: number }).status === 404) on.missing(); else on.error(e); });
}

export interface SaveSteps {
  t: TFunction;
  navigate: NavigateFunction;
  /** After a create, before the new record opens (an account's first password). */
  afterCreate?: (id: number) => Promise<unknown>;
}

/**
 * Creates the record (then opens it in place of the create screen) or patches it, with the "saved" or
 * "save failed" toast. Answers whether it saved; a refusal is also handed to `failed` to show where the person acted.
 */
export async function saveAdminRecord(entity: string, id: string | undefined, body: Record<string, unknown> | null, steps: SaveSteps, failed: (e: unknown) => void): Promise<boolean> {
  try {
    if (id === undefined) {
      const r = await api.post<{ data: { id: number } }>(`/api/${entity}`, body ?? {});
      await steps.afterCreate?.(r.data.id);
      toast('success', steps.t('common.saved'));
      steps.navigate(`/${entity}/${r.data.id}`, { replace: true });
    } else {
      // null: nothing changed, so nothing to send
      if (body) await api.patch(`/api/${entity}/${id}`, body);
      toast('success', steps.t('common.saved'));
    }
    return true;
  } catch (e) {
    failed(e);
    toast('error', steps.t('admin.save_failed'), errorText(e));
    return false;
  }
}
