import { useTranslation } from 'react-i18next';
import { PageTitle } from './PageTitle.tsx';

/** A screen of a later issue: its title and one plain line, never fake data. */
export default function NotAvailableYet({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <section className="bo-page">
      <PageTitle>{t(titleKey)}</PageTitle>
      <p className="bo-muted" data-testid="not-available-yet">{t('common.not_available_yet')}</p>
    </section>
  );
}
