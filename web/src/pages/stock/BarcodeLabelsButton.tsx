import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { downloadBlob, ErrorBox } from '../admin/admin-common.tsx';
import './stock-i18n.ts';

/** Downloads the label PDF of these pack barcodes (`GET /api/{entity}/labels.pdf`, the entity that holds them). */
export default function BarcodeLabelsButton({ entity, ids }: { entity: string; ids: number[] }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!ids.length) return null;
  const print = async () => {
    setBusy(true); setError(null);
    try { await downloadBlob(`/api/${entity}/labels.pdf?ids=${ids.join(',')}`, `${entity}.pdf`); } catch (e) { setError(e); } finally { setBusy(false); }
  };
  return (
    <>
      <Button type="button" icon="pi pi-print" label={t('scan.print_labels')} outlined loading={busy} onClick={() => void print()} data-testid="print-labels" />
      <ErrorBox error={error} />
    </>
  );
}
