import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageTitle } from './PageTitle.tsx';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="bo-page bo-not-found" data-testid="not-found">
      <div className="bo-not-found-code" aria-hidden="true">404</div>
      <PageTitle>{t('common.not_found')}</PageTitle>
      <p className="bo-muted">{t('common.not_found_text')}</p>
      <Link to="/" className="p-button p-button-outlined p-button-sm">{t('common.back_home')}</Link>
    </section>
  );
}
