import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { isCustomer, rememberCustomerId, sessionAtom } from '../core/session-atoms.ts';
import { api } from '../core/http-client.ts';
import NotFound from '../ui/NotFound.tsx';
import { Spinner } from '../ui/Spinner.tsx';

/**
 * The portal's path names a customer; the server shows a customer only their
 * own bills whatever the path says, so a customer on another customer's path
 * would read their own bills under the wrong id. A customer is sent to their own
 * path. A session stored before the customer id was kept asks the server once.
 */
export function PortalGuard({ children }: { children: ReactNode }) {
  const { customerId } = useParams();
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  const customer = isCustomer(session);
  const [lookup, setLookup] = useState<'idle' | 'failed'>('idle');
  useEffect(() => {
    if (!customer || session.customer_id !== null || session.id === null) return;
    api.post<{ data: { customer_id: number | null } }>('/api/user/id', { user_id: session.id })
      .then((r) => { if (r.data.customer_id === null) setLookup('failed'); else rememberCustomerId(Number(r.data.customer_id)); }, () => setLookup('failed'));
  }, [customer, session.customer_id, session.id]);
  if (!customer) return <>{children}</>;
  if (session.customer_id === null) return lookup === 'failed' ? <NotFound /> : <Spinner />;
  const own = String(session.customer_id);
  if (customerId !== own) {
    // a bill id in another customer's path is not followed: the list of their own bills is the safe place
    return <Navigate to={`/customerpage/${own}/bill`} replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}
