import { useTranslation } from 'react-i18next';
import { Spinner } from './Spinner.tsx';

/** Shown below the header while role, user type, settings and translations load. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className="bo-loading" data-testid="loading-screen">
      <Spinner label={t('common.loading')} />
    </div>
  );
}
