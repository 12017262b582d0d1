import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The page heading; also sets the document title. */
export function PageTitle({ children, actions }: { children: string; actions?: ReactNode }) {
  const { t } = useTranslation();
  useEffect(() => { document.title = `${children} · ${t('app.name')}`; }, [children, t]);
  return (
    <div className="bo-page-title">
      <h1>{children}</h1>
      {actions && <div className="bo-page-actions">{actions}</div>}
    </div>
  );
}
