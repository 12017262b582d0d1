// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { appStore } from '../core/app-store.ts';
import { i18n, setLanguage } from '../core/i18n.ts';
import { EMPTY_SESSION, sessionAtom } from '../core/session-atoms.ts';
import { ConfirmDialog, confirmUserId, type ConfirmDialogProps } from './ConfirmDialog.tsx';

function renderAt(path: string, props: Partial<ConfirmDialogProps> = {}) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <Provider store={appStore}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <ConfirmDialog visible message="Delete this bill?" onConfirm={onConfirm} onCancel={onCancel} {...props} />
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
  return { onConfirm, onCancel };
}

describe('ConfirmDialog', () => {
  afterEach(() => { cleanup(); appStore.set(sessionAtom, EMPTY_SESSION); });
  setLanguage('en');

  it('shows the message with CANCEL and DELETE and no close icon', () => {
    const { onCancel } = renderAt('/customer/1', { header: 'Confirm delete' });
    expect(screen.getByText('Confirm delete')).toBeTruthy();
    expect(screen.getByText('Delete this bill?')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'CANCEL' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'DELETE' })).toBeTruthy();
    expect(document.querySelector('.p-dialog-header-close')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'CANCEL' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('has no header when none is given and takes a custom confirm label', () => {
    renderAt('/customer/1', { confirmLabel: 'LEAVE' });
    expect(document.querySelector('.p-dialog-header')).toBeNull();
    expect(screen.getByRole('button', { name: 'LEAVE' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'DELETE' })).toBeNull();
  });

  it('with the backdrop option shows only the confirm button', () => {
    renderAt('/customer/1', { backdrop: true });
    expect(screen.queryByRole('button', { name: 'CANCEL' })).toBeNull();
    expect(screen.getByRole('button', { name: 'DELETE' })).toBeTruthy();
  });

  it('passes nothing on confirm outside a customer page', () => {
    appStore.set(sessionAtom, { ...EMPTY_SESSION, isAuthenticated: true, id: 7 });
    const { onConfirm } = renderAt('/billing_note/3');
    fireEvent.click(screen.getByRole('button', { name: 'DELETE' }));
    expect(onConfirm).toHaveBeenCalledWith();
  });

  it("passes the signed-in user's id on a customer page", () => {
    appStore.set(sessionAtom, { ...EMPTY_SESSION, isAuthenticated: true, id: 7, role_id: -1 });
    const { onConfirm } = renderAt('/customerpage/12/bill');
    fireEvent.click(screen.getByRole('button', { name: 'DELETE' }));
    expect(onConfirm).toHaveBeenCalledWith(7);
  });

  it('the id rule: first path segment customerpage and an id', () => {
    expect(confirmUserId('/customerpage/1/bill', 5)).toBe(5);
    expect(confirmUserId('/customerpage/1/bill', null)).toBeUndefined();
    expect(confirmUserId('/x/customerpage', 5)).toBeUndefined();
  });

  it('labels follow the language', () => {
    setLanguage('th');
    renderAt('/customer/1');
    expect(screen.getByRole('button', { name: i18n.t('confirm.delete') })).toBeTruthy();
    setLanguage('en');
  });
});
