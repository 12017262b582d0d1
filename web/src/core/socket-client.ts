import { atom } from 'jotai';
import type { Socket } from 'socket.io-client';
import { appStore } from './app-store.ts';
import { notificationNumberAtom, sessionExpiredAtom, settingsAnnounced } from './app-data.ts';
import { applySchemaChange, type SchemaChange } from './schema-live.ts';

export const SOCKET_RECONNECTION_ATTEMPTS = 10;

export const socketStateAtom = atom({ isConnected: false });
/** Unread alerts shown on the Notification button (kept with the app data, which socket events update, so the two do not import each other). */
export { notificationNumberAtom } from './app-data.ts';

let socket: Socket | null = null;
let generation = 0;

/** Connects with the token (socket.io-client loads on demand so the sign-in page stays small). */
export async function connectSocket(token: string): Promise<void> {
  disconnectSocket();
  const mine = ++generation;
  const { io } = await import('socket.io-client');
  if (mine !== generation) return;
  const s = io({ auth: { token }, reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS, transports: ['websocket'] });
  socket = s;
  // changes missed before or between connections are caught by what the server announces on
  // every connect: the schema version (schema-changed) and the site settings' stamp (settings-changed)
  s.on('connect', () => appStore.set(socketStateAtom, { isConnected: true }));
  s.on('disconnect', () => appStore.set(socketStateAtom, { isConnected: false }));
  s.on('connect_error', (err: Error) => console.log('socket connect_error:', err.message));
  // the server closed this socket because the session ended (sign-out elsewhere, deactivation)
  s.on('session-ended', () => appStore.set(sessionExpiredAtom, true));
  // the server closed it because the account's rights changed: connect again to be judged on the new ones
  s.on('reauthenticate', () => { setTimeout(() => { if (socket === s) s.connect(); }, 200); });
  // an admin changed page settings (on any instance): open screens re-render with them
  s.on('schema-changed', (change: SchemaChange) => { void applySchemaChange(change); });
  // an admin changed the site settings: read them again so flags apply without a reload
  s.on('settings-changed', (payload: { stamp?: unknown } | undefined) => settingsAnnounced(payload?.stamp));
  s.on('update-alert-number', (payload: { notificationNumber?: number }) => {
    if (typeof payload?.notificationNumber === 'number') appStore.set(notificationNumberAtom, payload.notificationNumber);
  });
}

export function disconnectSocket(): void {
  generation++;
  if (socket) {
    socket.removeAllListeners();
    socket.disconnect();
    socket = null;
  }
  appStore.set(socketStateAtom, { isConnected: false });
}

/** The live socket, for the socket test screen (null before sign-in or while it loads). */
export function currentSocket(): Socket | null {
  return socket;
}

export function isSocketOpen(): boolean {
  return socket !== null;
}
