import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Menu } from 'primereact/menu';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { api, download } from '../core/http-client.ts';
import { ApiError } from '../core/api-error.ts';
import { useCan } from '../core/permissions.ts';
import { toast } from '../core/toast-bus.ts';
import { EtaxOutput } from './EtaxOutput.tsx';

type Row = Record<string, unknown>;
const ADDRESS_LIST = /[,;\s]+/;

/**
 * Print (PDF in Thai or English) and e-mail (the PDF attached) for a stored
 * document, each shown to roles with the flag; the server checks the flags,
 * the row and the reprint limit again.
 */
export function DocumentOutput({ entity, record }: { entity: EntitySchema; record: Row }) {
  const { t, i18n } = useTranslation();
  const key = entity.menuKey ?? entity.name;
  const canPrint = useCan(key, 'print');
  const canEmail = useCan(key, 'email');
  const menu = useRef<Menu>(null);
  const [printing, setPrinting] = useState(false);
  const [mail, setMail] = useState<{ to: string; cc: string; subject: string; message: string; lang: 'th' | 'en'; etax?: boolean } | null>(null);
  const [sending, setSending] = useState(false);
  if (entity.kind !== 'document' || record.id === undefined || (!canPrint && !canEmail)) return null;
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const title = String(record[entity.numbering?.field ?? entity.titleField] ?? record.id);

  const print = async (pdfLang: 'th' | 'en', copies?: string) => {
    // the window opens now, while the click still counts as the user's: after the download a popup blocker would refuse it
    const win = window.open('', '_blank');
    setPrinting(true);
    try {
      const { blob, headers } = await download(`/api/${entity.name}/${String(record.id)}/pdf`, { lang: pdfLang, ...(copies ? { copies } : {}) });
      const url = URL.createObjectURL(blob);
      if (win) win.location.href = url;
      else window.location.href = url;
      const count = headers.get('x-print-count');
      toast('success', t('output.printed'), count ? t('output.print_count', { count: Number(count) }) : title);
    } catch (err) {
      win?.close();
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setPrinting(false);
    }
  };

  const send = async () => {
    if (!mail) return;
    setSending(true);
    try {
      const split = (s: string) => s.split(ADDRESS_LIST).map((x) => x.trim()).filter(Boolean);
      const res = await api.post<{ data: { to: string[] } }>(`/api/${entity.name}/${String(record.id)}/${mail.etax ? 'etax-email' : 'email'}`, {
        to: split(mail.to), cc: split(mail.cc), subject: mail.subject || undefined, message: mail.message || undefined, lang: mail.lang,
      });
      toast('success', t('output.email_sent'), res.data.to.join(', '));
      setMail(null);
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      {canPrint && (
        <>
          <Menu popup ref={menu} model={[
            { label: t('output.print_th'), command: () => void print('th') },
            { label: t('output.print_en'), command: () => void print('en') },
            // one PDF: the original, then the copy, each marked (ต้นฉบับ / สำเนา)
            { label: t('output.print_copies'), command: () => void print(lang, 'original,copy') },
          ]} />
          <Button type="button" icon="pi pi-print" label={t('output.print')} outlined severity="secondary" loading={printing}
            aria-haspopup="menu" onClick={(e) => menu.current?.toggle(e)} data-testid="document-print" />
        </>
      )}
      {canEmail && (
        <Button type="button" icon="pi pi-envelope" label={t('output.email')} outlined severity="secondary"
          onClick={() => setMail({ to: '', cc: '', subject: title, message: '', lang })} data-testid="document-email" />
      )}
      <EtaxOutput entity={entity} record={record} onEmail={() => setMail({ to: '', cc: '', subject: title, message: '', lang, etax: true })} />
      <Dialog header={`${mail?.etax ? t('output.etax_email') : t('output.email')}: ${title}`} visible={mail !== null} style={{ width: 'min(520px, 95vw)' }} onHide={() => setMail(null)}
        footer={(
          <>
            <Button type="button" label={t('common.cancel')} severity="secondary" outlined onClick={() => setMail(null)} />
            <Button type="button" icon="pi pi-send" label={t('output.email_send')} loading={sending} disabled={!mail?.to.trim()} onClick={() => void send()} />
          </>
        )}>
        {mail && (
          <form className="bo-grid" onSubmit={(e) => { e.preventDefault(); void send(); }}>
            <div className="bo-field">
              <label htmlFor="mail-to">{t('output.email_to')} <span className="bo-required" aria-hidden="true">*</span></label>
              <InputText id="mail-to" type="text" value={mail.to} autoFocus onChange={(e) => setMail({ ...mail, to: e.target.value })} aria-describedby="mail-to-help" />
              <small id="mail-to-help" className="bo-help">{t('output.email_many')}</small>
            </div>
            <div className="bo-field">
              <label htmlFor="mail-cc">{t('output.email_cc')}</label>
              <InputText id="mail-cc" type="text" value={mail.cc} onChange={(e) => setMail({ ...mail, cc: e.target.value })} />
            </div>
            <div className="bo-field">
              <label htmlFor="mail-subject">{t('output.email_subject')}</label>
              <InputText id="mail-subject" value={mail.subject} maxLength={200} onChange={(e) => setMail({ ...mail, subject: e.target.value })} />
            </div>
            <div className="bo-field">
              <label htmlFor="mail-message">{t('output.email_message')}</label>
              <InputTextarea id="mail-message" rows={4} value={mail.message} onChange={(e) => setMail({ ...mail, message: e.target.value })} />
            </div>
            <div className="bo-field">
              <label htmlFor="mail-lang">{t('output.pdf_language')}</label>
              <select id="mail-lang" className="p-inputtext p-component" value={mail.lang} onChange={(e) => setMail({ ...mail, lang: e.target.value === 'en' ? 'en' : 'th' })}>
                <option value="th">ไทย</option>
                <option value="en">English</option>
              </select>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
