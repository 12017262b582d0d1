// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { Toaster, TOAST_CARRIES_OVER_MS } from './Toaster.tsx';
import { toast } from '../core/toast-bus.ts';

let go: (path: string) => void = () => undefined;
function Nav() {
  const navigate = useNavigate();
  go = (p) => navigate(p);
  return null;
}

describe('Toaster', () => {
  afterEach(() => { cleanup(); vi.useRealTimers(); });

  it('at most three toasts at once, and another page takes the earlier page\'s toasts away', async () => {
    render(<MemoryRouter initialEntries={['/quotation/1']}><Nav /><Toaster /></MemoryRouter>);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    act(() => { for (const n of [1, 2, 3, 4]) toast('error', `ผิดพลาด ${n}`); });
    await waitFor(() => expect(screen.queryByText('ผิดพลาด 4')).toBeTruthy());
    await waitFor(() => expect(screen.queryByText('ผิดพลาด 1')).toBeNull());
    // later, one toast announces the move to the new page, then the page changes
    clock.mockReturnValue(now + TOAST_CARRIES_OVER_MS + 1000);
    act(() => { toast('success', 'สร้างแล้ว'); go('/sales_order/2'); });
    await waitFor(() => expect(screen.queryByText('ผิดพลาด 4')).toBeNull());
    expect(screen.queryByText('ผิดพลาด 2')).toBeNull();
    expect(screen.queryByText('สร้างแล้ว')).toBeTruthy();
    clock.mockRestore();
  });
});
