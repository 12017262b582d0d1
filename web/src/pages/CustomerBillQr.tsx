import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { api, ApiError } from '../core/http-client.ts';
import { i18n as i18next } from '../core/i18n.ts';

for (const [key, th, en] of [
  ['portal.promptpay', 'ชำระด้วยพร้อมเพย์', 'Pay by PromptPay'],
  ['portal.amount_due', 'ยอดค้างชำระ', 'Amount due'],
  ['portal.scan', 'สแกน QR ด้วยแอปธนาคารเพื่อชำระยอดนี้', 'Scan the QR with a banking app to pay this amount'],
  ['portal.nothing_due', 'ใบวางบิลนี้ไม่มียอดค้างชำระ', 'Nothing is due on this bill'],
] as const) {
  i18next.addResource('th', 'translation', key, th);
  i18next.addResource('en', 'translation', key, en);
}

/**
 * The PromptPay QR of what is still due on the customer's bill (issue 34 §2):
 * the payload comes from GET /api/{entity}/{id}/promptpay (read like the
 * bill, so only the customer's own), drawn here with qrcode. With nothing due
 * the page says so; a company without a PromptPay id shows no QR.
 */
export function CustomerBillQr({ entity, id }: { entity: string; id: string }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<{ image: string; amount: number } | null>(null);
  const [nothingDue, setNothingDue] = useState(false);
  useEffect(() => {
    let live = true;
    setQr(null);
    setNothingDue(false);
    api.get<{ data: { payload: string; amount: number } }>(`/api/${entity}/${id}/promptpay`)
      .then(async (r) => {
        const image = await QRCode.toDataURL(r.data.payload, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
        if (live) setQr({ image, amount: r.data.amount });
      })
      .catch((e: unknown) => { if (live && e instanceof ApiError && e.status === 409) setNothingDue(true); });
    return () => { live = false; };
  }, [entity, id]);
  if (nothingDue) return <p className="bo-muted" data-testid="promptpay-nothing-due">{t('portal.nothing_due')}</p>;
  if (!qr) return null;
  return (
    <div className="bo-promptpay" data-testid="promptpay">
      <h2 className="bo-section-title">{t('portal.promptpay')}</h2>
      <img src={qr.image} width={240} height={240} alt={t('portal.promptpay')} data-testid="promptpay-qr" />
      <p>{t('portal.amount_due')} <strong data-testid="promptpay-amount">{qr.amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}</strong></p>
      <p className="bo-muted">{t('portal.scan')}</p>
    </div>
  );
}
