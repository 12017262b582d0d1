import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { PageTitle } from './PageTitle.tsx';
import { isCustomer, sessionAtom } from '../core/session-atoms.ts';

/** A built screen the signed-in user may not open: says so, instead of "not available yet". */
export default function NoAccess({ titleKey }: { titleKey?: string }) {
  const { t } = useTranslation();
  const session = useAtomValue(sessionAtom);
  // a customer's home is their portal
  const home = isCustomer(session) && session.customer_id !== null ? `/customerpage/${session.customer_id}/bill` : '/';
  return (
    <section className="bo-page" data-testid="no-access">
      <PageTitle>{titleKey ? t(titleKey) : t('common.no_access')}</PageTitle>
      <p className="bo-error-text"><i className="pi pi-lock" aria-hidden="true" /> {t('common.no_access')}</p>
      <p className="bo-muted">{t('common.no_access_text')}</p>
      <Link to={home} className="p-button p-button-outlined p-button-sm">{t('common.back_home')}</Link>
    </section>
  );
}
