import { useAtomValue } from 'jotai';
import { roleAtom, type Permission } from './app-data.ts';

/** The role's flags for a menu key; "*" covers every key not named (docs/permissions.md). */
export function flagsOf(roleDetail: Record<string, Permission> | undefined, menuKey: string): Permission {
  if (!roleDetail) return {};
  return roleDetail[menuKey] ?? roleDetail['*'] ?? {};
}

/** Whether the signed-in role has a flag on a menu key. Hiding is convenience only: the server enforces it. */
export function useCan(menuKey: string, flag: keyof Permission): boolean {
  const role = useAtomValue(roleAtom);
  if (role.status !== 'loaded') return false;
  return !!flagsOf(role.data.role_detail, menuKey)[flag];
}
