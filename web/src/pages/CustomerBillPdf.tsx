import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, download } from '../core/http-client.ts';
import './documents/finance-i18n.ts';

/**
 * The customer's billing note as a view-only PDF copy, embedded in the page
 * (issue 9 §3). The copy comes from the portal's own route, which marks every
 * page "COPY — for viewing only" and does not count as a print (the Customer
 * role may not print, spec §6). It is fetched with the session's token and shown
 * from a blob: URL, because a frame cannot send the token and the CSP allows
 * frames of blob: URLs only.
 */
export function CustomerBillPdf({ customerId, id }: { customerId: string; id: string }) {
  const { t, i18n } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lang = i18n.language === 'en' ? 'en' : 'th';
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    setSrc(null);
    setError(null);
    download(`/api/customerpage/${customerId}/bill/${id}/pdf`, { lang })
      .then(({ blob }) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      }, (e: unknown) => live && setError(e instanceof ApiError ? e.message : String(e)));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [customerId, id, lang]);
  return (
    <div className="bo-table-wrap" data-testid="portal-bill-pdf">
      <h2 className="bo-section-title">{t('portal.pdf_title')}</h2>
      <p className="bo-muted">{t('portal.pdf_note')}</p>
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {!src && !error && <p>{t('portal.pdf_loading')}</p>}
      {src && <iframe title={t('portal.pdf_title')} src={src} style={{ width: '100%', height: '80vh', border: '1px solid var(--bo-border, #d1d5db)' }} />}
    </div>
  );
}
