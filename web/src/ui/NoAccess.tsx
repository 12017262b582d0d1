import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageTitle } from './PageTitle.tsx';

/** A built screen the signed-in user may not open: says so, instead of "not available yet". */
export default function NoAccess({ titleKey }: { titleKey?: string }) {
  const { t } = useTranslation();
  return (
    <section className="bo-page" data-testid="no-access">
      <PageTitle>{titleKey ? t(titleKey) : t('common.no_access')}</PageTitle>
      <p className="bo-error-text"><i className="pi pi-lock" aria-hidden="true" /> {t('common.no_access')}</p>
      <p className="bo-muted">{t('common.no_access_text')}</p>
      <Link to="/" className="p-button p-button-outlined p-button-sm">{t('common.back_home')}</Link>
    </section>
  );
}
