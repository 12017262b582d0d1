import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { ApiError } from '../../core/api-error.ts';
import { formatLocal } from '../../core/thai-dates.ts';

interface EtaxStatus {
  certificate: { configured: boolean; subject?: string; not_after?: string };
  rd_email: string | null;
  email: boolean;
}

/**
 * On the issuing company's form (schema key `etaxIssuer`): whether the server has an e-Tax signing certificate
 * (ETAX_P12_PATH) and whom it names, and where e-Tax e-mails are copied. It is set on the server, never here:
 * the certificate and its key are not sent to the browser.
 */
export function EtaxCertificatePanel() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<EtaxStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.get<{ data: EtaxStatus }>('/api/etax/status')
      .then((r) => { if (live) setStatus(r.data); })
      .catch((err: unknown) => { if (live) setError(err instanceof ApiError ? err.message : String(err)); });
    return () => { live = false; };
  }, []);
  const c = status?.certificate;
  return (
    <section className="bo-card" aria-labelledby="etax-certificate-title" data-testid="etax-certificate">
      <h3 id="etax-certificate-title">{t('etax.certificate_title')}</h3>
      {error && <p className="bo-help">{error}</p>}
      {c && (c.configured
        ? <p>{t('etax.certificate_on', { subject: c.subject ?? '', until: c.not_after ? formatLocal(new Date(c.not_after), i18n.language) : '' })}</p>
        : <p>{t('etax.certificate_off')}</p>)}
      {status && <p className="bo-help">{status.rd_email ? t('etax.rd_email_on', { address: status.rd_email }) : t('etax.rd_email_off')}</p>}
    </section>
  );
}
