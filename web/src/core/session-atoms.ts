import { atom } from 'jotai';
import { appStore } from './app-store.ts';
import { setTokenSource } from './http-client.ts';
import { connectSocket, disconnectSocket } from './socket-client.ts';
import { CUSTOMER_KEY, EMPTY_SESSION, readStoredSession, SESSION_KEYS, type Session } from './stored-session.ts';
import { clearEarly } from './early-requests.ts';

export { CUSTOMER_KEY, EMPTY_SESSION, readStoredSession, SESSION_KEYS, type Session } from './stored-session.ts';

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
  clearEarly(); // answers sent early belonged to the session stored at load
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
  clearEarly();
  for (const k of SESSION_KEYS) localStorage.removeItem(k);
  localStorage.removeItem(CUSTOMER_KEY);
  disconnectSocket();
  appStore.set(sessionAtom, EMPTY_SESSION);
}

import { CUSTOMER_ROLE_ID } from '../../../engine/permissions/customer-role.ts';
export const isCustomer = (s: Session) => s.role_id === CUSTOMER_ROLE_ID;
