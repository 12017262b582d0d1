// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { appStore } from '../core/app-store.ts';
import { i18n, setLanguage } from '../core/i18n.ts';
import { useFetchForTests } from '../core/http-client.ts';
import { EMPTY_SESSION, readStoredSession, sessionAtom, type Session } from '../core/session-atoms.ts';
import { loadMenu, loadRole, loadSettings, loadTranslations, loadUserType, resetAppData, sessionExpiredAtom } from '../core/app-data.ts';
import * as socket from '../core/socket-client.ts';
import { SessionExpiredModal } from './SessionExpiredModal.tsx';

const staff: Session = { ...EMPTY_SESSION, isAuthenticated: true, id_token: 'old', username: 'somchai', role_id: 2, id: 9 };

function answer(status: number, body: unknown) {
  useFetchForTests((async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as typeof fetch);
}

function mount(path: string) {
  const router = createMemoryRouter([
    { path: '*', element: <SessionExpiredModal /> },
    { path: '/signin', element: <p>signin page</p> },
    { path: '/signin/customer/:customerId', element: <p>customer signin page</p> },
  ], { initialEntries: [path] });
  render(
    <Provider store={appStore}>
      <I18nextProvider i18n={i18n}><RouterProvider router={router} /></I18nextProvider>
    </Provider>,
  );
  return router;
}

function storeSession(s: Session) {
  for (const [k, v] of Object.entries(s)) localStorage.setItem(k, String(v ?? ''));
  appStore.set(sessionAtom, s);
}

describe('session expired', () => {
  beforeEach(() => { setLanguage('en'); resetAppData(); storeSession(staff); });
  afterEach(() => { cleanup(); localStorage.clear(); });

  it.each([
    ['role', () => loadRole(staff)],
    ['user type', () => loadUserType(staff)],
    ['language', () => loadTranslations()],
    ['site settings', () => loadSettings()],
    ['menus', () => loadMenu(staff)],
  ])('a 401 while loading the %s expires the session', async (_name, load) => {
    answer(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'Sign in to continue' } });
    await load();
    expect(appStore.get(sessionExpiredAtom)).toBe(true);
  });

  it('a role lookup with no rows expires the session', async () => {
    answer(200, { success: true, role_data: [] });
    await loadRole(staff);
    expect(appStore.get(sessionExpiredAtom)).toBe(true);
  });

  it('other failures do not', async () => {
    answer(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'x' } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await loadMenu(staff);
    await loadSettings();
    expect(appStore.get(sessionExpiredAtom)).toBe(false);
  });

  it('site settings with status >= 400 report "Bad response from server"', async () => {
    answer(503, { success: false, error: { code: 'INTERNAL_ERROR', message: 'down' } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { settingsAtom } = await import('../core/app-data.ts');
    await loadSettings();
    const s = appStore.get(settingsAtom);
    expect(s.status === 'error' && s.error.message).toBe('Bad response from server');
  });

  it('shows the modal; LOGOUT clears it, signs out, disconnects and goes to /signin', async () => {
    const disconnect = vi.spyOn(socket, 'disconnectSocket');
    const router = mount('/customer/4');
    act(() => { appStore.set(sessionExpiredAtom, true); });
    expect(await screen.findByText('Session expired')).toBeTruthy();
    expect(screen.getByText('Your session is expired. Please log in.')).toBeTruthy();
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['LOGOUT']);
    fireEvent.click(screen.getByRole('button', { name: 'LOGOUT' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(appStore.get(sessionExpiredAtom)).toBe(false);
    expect(appStore.get(sessionAtom).isAuthenticated).toBe(false);
    expect(readStoredSession().id_token).toBe('');
    expect(localStorage.getItem('isAuthenticated')).toBeNull();
    expect(disconnect).toHaveBeenCalled();
  });

  it('on a customer page LOGOUT goes to that customer\'s sign-in page', async () => {
    storeSession({ ...staff, role_id: -1 });
    const router = mount('/customerpage/42/bill');
    act(() => { appStore.set(sessionExpiredAtom, true); });
    fireEvent.click(await screen.findByRole('button', { name: 'LOGOUT' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin/customer/42'));
  });
});
