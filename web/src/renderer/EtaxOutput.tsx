import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { download, saveBlob } from '../core/http-client.ts';
import { ApiError } from '../core/api-error.ts';
import { useCan } from '../core/permissions.ts';
import { toast } from '../core/toast-bus.ts';
import { etaxWarningTexts } from '../../../engine/etax/etax-codes.ts';

type Row = Record<string, unknown>;

/**
 * e-Tax Invoice & e-Receipt for a document whose schema declares `document.etax`: download the ETDA XML or
 * the PDF/A-3 with the XML inside (print flag), and e-mail it as e-Tax (email flag: `onEmail` opens the
 * document's e-mail dialog in e-Tax mode). The server checks the flags and answers in Thai what is missing.
 */
export function EtaxOutput({ entity, record, onEmail }: { entity: EntitySchema; record: Row; onEmail: () => void }) {
  const { t, i18n } = useTranslation();
  const key = entity.menuKey ?? entity.name;
  const canPrint = useCan(key, 'print');
  const canEmail = useCan(key, 'email');
  const menu = useRef<Menu>(null);
  const [busy, setBusy] = useState(false);
  if (!entity.document?.etax || record.id === undefined) return null;

  const fetchFile = async (file: 'etax.xml' | 'etax.pdf', query: Record<string, string> = {}) => {
    setBusy(true);
    try {
      const { blob, fileName, headers } = await download(`/api/${entity.name}/${String(record.id)}/${file}`, query);
      saveBlob(blob, fileName ?? `${entity.name}-${String(record.id)}.${file.split('.')[1]}`);
      // the file is made, but ETDA's checks will refuse what the company's record lacks: say what to complete
      const warnings = etaxWarningTexts(headers.get('x-etax-warnings'), i18n.language === 'en' ? 'en' : 'th');
      if (warnings.length) toast('warn', t('output.etax_incomplete'), warnings.join(' · '));
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {canPrint && (
        <>
          <Menu popup ref={menu} model={[
            { label: t('output.etax_xml'), command: () => void fetchFile('etax.xml') },
            { label: t('output.etax_pdf_th'), command: () => void fetchFile('etax.pdf', { lang: 'th' }) },
            { label: t('output.etax_pdf_en'), command: () => void fetchFile('etax.pdf', { lang: 'en' }) },
          ]} />
          <Button type="button" icon="pi pi-file-export" label={t('output.etax')} outlined severity="secondary" loading={busy}
            aria-haspopup="menu" onClick={(e) => menu.current?.toggle(e)} data-testid="document-etax" />
        </>
      )}
      {canEmail && (
        <Button type="button" icon="pi pi-send" label={t('output.etax_email')} outlined severity="secondary" onClick={onEmail} data-testid="document-etax-email" />
      )}
    </>
  );
}
