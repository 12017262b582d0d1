import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { signOut } from '../core/session-atoms.ts';
import { resetAppData } from '../core/app-data.ts';

/** The sign-in page to return to: the customer's own page on a customer page, otherwise /signin. */
export function signInPathFor(pathname: string): string {
  const [first, customerId] = pathname.split('/').filter(Boolean);
  return first === 'customerpage' && customerId ? `/signin/customer/${customerId}` : '/signin';
}

export function useSignOut(): () => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(() => {
    const target = signInPathFor(pathname);
    signOut();
    resetAppData();
    navigate(target, { replace: true });
  }, [navigate, pathname]);
}
