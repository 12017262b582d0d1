import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { DEFAULT_UPLOAD_CATEGORY, downloadFile, formatBytes, rememberFileName, sendFiles, type UploadedFile } from '../../core/file-api.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { errorText } from './admin-common.tsx';

interface Item { key: string; file: File; percent: number; stored?: UploadedFile; error?: string }

/** /testuplaod (the spec's spelling): several files to one category, a progress bar each, what the server stored, and downloads. */
export default function TestUpload() {
  const { t } = useTranslation();
  const [category, setCategory] = useState(DEFAULT_UPLOAD_CATEGORY);
  const [items, setItems] = useState<Item[]>([]);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const valid = /^[a-z0-9_-]{1,40}$/.test(category);

  const choose = (files: FileList | null) => {
    if (!files) return;
    setItems(Array.from(files).map((file, i) => ({ key: `${Date.now()}-${i}`, file, percent: 0 })));
  };
  const patch = (key: string, p: Partial<Item>) => setItems((list) => list.map((it) => (it.key === key ? { ...it, ...p } : it)));

  const upload = async () => {
    setBusy(true);
    // one request per file, so each has its own progress bar
    await Promise.all(items.filter((it) => !it.stored).map(async (it) => {
      try {
        const [stored] = await sendFiles([it.file], category, (percent) => patch(it.key, { percent }));
        if (stored) rememberFileName(stored.id, stored.file_name);
        patch(it.key, { stored, percent: 100, error: undefined });
      } catch (e) {
        patch(it.key, { error: errorText(e) });
      }
    }));
    setBusy(false);
  };

  return (
    <section className="bo-page">
      <PageTitle>{t('route.testuplaod')}</PageTitle>
      <div className="bo-card">
        <div className="bo-toolbar">
          <label htmlFor="tu-cat">{t('upload.category')}</label>
          <InputText id="tu-cat" value={category} onChange={(e) => setCategory(e.target.value)} invalid={!valid} style={{ width: 180 }} />
          <input ref={picker} id="tu-files" type="file" multiple hidden aria-label={t('upload.choose')} onChange={(e) => choose(e.target.files)} />
          <Button label={t('upload.choose')} icon="pi pi-folder-open" outlined onClick={() => picker.current?.click()} disabled={busy} />
          <Button label={t('upload.start')} icon="pi pi-upload" onClick={() => void upload()} disabled={!valid || busy || items.length === 0 || items.every((i) => i.stored)} loading={busy} />
        </div>
        <table className="bo-admin-table" data-testid="upload-list">
          <thead><tr><th>{t('upload.name')}</th><th className="bo-num">{t('upload.size')}</th><th style={{ width: 220 }}>{t('file.uploading')}</th><th>{t('upload.stored')}</th><th /></tr></thead>
          <tbody>
            {items.length === 0 && <tr><td colSpan={5} className="bo-muted">{t('upload.choose')}</td></tr>}
            {items.map((it) => (
              <tr key={it.key}>
                <td>{it.file.name}</td>
                <td className="bo-num">{formatBytes(it.file.size)}</td>
                <td>
                  <div className="bo-progress" role="progressbar" aria-valuenow={it.percent} aria-valuemin={0} aria-valuemax={100}><span style={{ width: `${it.percent}%` }} /></div>
                  <small className={it.error ? 'bo-field-error' : 'bo-muted'}>{it.error ? `${t('upload.failed')}: ${it.error}` : `${it.percent}%${it.stored ? ` · ${t('upload.done')}` : ''}`}</small>
                </td>
                <td>{it.stored ? <span data-testid="stored-file">{it.stored.file_name} · {it.stored.mime_type} · {formatBytes(it.stored.size)} · {it.stored.category}</span> : ''}</td>
                <td>{it.stored && <Button label={t('file.download')} icon="pi pi-download" text size="small" onClick={() => void downloadFile(it.stored!.id, it.stored!.file_name)} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
