import type { ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { isCustomer, sessionAtom } from '../core/session-atoms.ts';
import NotFound from '../ui/NotFound.tsx';

/**
 * The portal's path names a customer; the server shows a customer only their
 * own bills whatever the path says, so a customer on another customer's path
 * would read their own bills under the wrong id. A customer is sent to their own
 * path; a session that does not know its customer sees not found.
 */
export function PortalGuard({ children }: { children: ReactNode }) {
  const { customerId } = useParams();
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  if (!isCustomer(session)) return <>{children}</>;
  if (session.customer_id === null) return <NotFound />;
  const own = String(session.customer_id);
  if (customerId !== own) {
    // a bill id in another customer's path is not followed: the list of their own bills is the safe place
    return <Navigate to={`/customerpage/${own}/bill`} replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}
