// Read without the app's state library: the boot entry (web/src/boot.ts) reads the session to start the start-up calls before React loads.

/** The session user of spec section 3, kept in localStorage (one key per field) and in memory. */
export interface Session {
  isAuthenticated: boolean;
  id_token: string;
  username: string;
  role_id: number | null;
  email: string;
  id: number | null;
  user_avatar: string;
  inventory_allow: string;
  branch_company: string;
  /** The customer of a portal account (role -1); null for staff. Kept beside the spec's keys. */
  customer_id: number | null;
}

export const SESSION_KEYS = ['isAuthenticated', 'id_token', 'username', 'role_id', 'email', 'id', 'user_avatar', 'inventory_allow', 'branch_company'] as const;
/** Stored beside the spec's keys: the portal needs to know whose pages these are. */
export const CUSTOMER_KEY = 'customer_id';

export const EMPTY_SESSION: Session = {
  isAuthenticated: false, id_token: '', username: '', role_id: null, email: '', id: null, user_avatar: '',
  inventory_allow: '[]', branch_company: '[]', customer_id: null,
};

function num(v: string | null): number | null {
  if (v === null || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

export function readStoredSession(storage: Storage = localStorage): Session {
  const g = (k: string) => storage.getItem(k);
  const token = g('id_token') ?? '';
  return {
    isAuthenticated: g('isAuthenticated') === 'true' && token !== '',
    id_token: token,
    username: g('username') ?? '',
    role_id: num(g('role_id')),
    email: g('email') ?? '',
    id: num(g('id')),
    user_avatar: g('user_avatar') ?? '',
    inventory_allow: g('inventory_allow') ?? '[]',
    branch_company: g('branch_company') ?? '[]',
    customer_id: num(g(CUSTOMER_KEY)),
  };
}
