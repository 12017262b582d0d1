import { atom } from 'jotai';
import { appStore } from './app-store.ts';
import { setTokenSource } from './http-client.ts';
import { connectSocket, disconnectSocket } from './socket-client.ts';

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

export interface SignInUser {
  id: number;
  username: string;
  role_id: number;
  email?: string | null;
  user_avatar?: string | null;
  inventory_allow?: string | null;
  branch_company?: string | null;
  customer_id?: number | null;
}

export const SESSION_KEYS = ['isAuthenticated', 'id_token', 'username', 'role_id', 'email', 'id', 'user_avatar', 'inventory_allow', 'branch_company'] as const;
/** Stored beside the spec's keys: the portal needs to know whose pages these are. */
const CUSTOMER_KEY = 'customer_id';

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

export const sessionAtom = atom<Session>(readStoredSession());

setTokenSource(() => appStore.get(sessionAtom).id_token || null);

/** Login: store the session fields, set the socket token and connect the socket. */
export function signIn(token: string, user: SignInUser): Session {
  const s: Session = {
    isAuthenticated: true,
    id_token: token,
    username: user.username,
    role_id: user.role_id,
    email: user.email ?? '',
    id: user.id,
    user_avatar: user.user_avatar ?? '',
    inventory_allow: user.inventory_allow ?? '[]',
    branch_company: user.branch_company ?? '[]',
    customer_id: user.customer_id ?? null,
  };
  for (const k of SESSION_KEYS) localStorage.setItem(k, String(s[k] ?? ''));
  localStorage.setItem(CUSTOMER_KEY, s.customer_id === null ? '' : String(s.customer_id));
  appStore.set(sessionAtom, s);
  connectSocket(token);
  return s;
}

/** The portal learned the session's customer from the server (a session stored before it was kept). */
export function rememberCustomerId(customerId: number): void {
  localStorage.setItem(CUSTOMER_KEY, String(customerId));
  appStore.set(sessionAtom, { ...appStore.get(sessionAtom), customer_id: customerId });
}

/** Logout: clear the stored fields, disconnect the socket, reset to empty. */
export function signOut(): void {
  for (const k of SESSION_KEYS) localStorage.removeItem(k);
  localStorage.removeItem(CUSTOMER_KEY);
  disconnectSocket();
  appStore.set(sessionAtom, EMPTY_SESSION);
}

import { CUSTOMER_ROLE_ID } from '../../../engine/permissions/customer-role.ts';
export const isCustomer = (s: Session) => s.role_id === CUSTOMER_ROLE_ID;
