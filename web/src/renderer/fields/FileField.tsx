import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../../engine/schema/schema-types.ts';
import { downloadFile, fetchFileBlob, fileName, rememberFileName, uploadFiles, type UploadedFile } from '../../core/file-api.ts';

export interface FileFieldProps {
  id: string;
  field: FieldDef;
  /** The stored file id (what the record keeps). */
  value: string | null;
  onChange: (id: string | null) => void;
  onUploaded?: (file: UploadedFile) => void;
  category: string;
  disabled?: boolean;
  invalid?: boolean;
  ariaLabel?: string;
  describedBy?: string;
  /** The name to show when the caller already knows it (e.g. a file_name column). */
  knownName?: string;
}

/** What an <input type=file> may pick: the mime types and extensions of the field's `accept`; images for image fields. */
export function acceptAttr(field: FieldDef): string | undefined {
  const list = (field.accept ?? []).filter((a) => a.includes('/') || a.startsWith('.'));
  if (list.length) return list.join(',');
  return field.type === 'image' ? 'image/*' : undefined;
}

/**
 * A file or image field: pick a file, watch the upload in percent, then the
 * stored file's name with a download link (the Bearer token goes with the
 * download, so it is fetched as a blob). Image fields show a preview.
 */
export function FileField({ id, field, value, onChange, onUploaded, category, disabled, invalid, ariaLabel, describedBy, knownName }: FileFieldProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [name, setName] = useState<string | null>(knownName ?? null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!value) { setName(null); return; }
    if (knownName) { setName(knownName); return; }
    let live = true;
    void fileName(value).then((n) => { if (live) setName(n ?? value); });
    return () => { live = false; };
  }, [value, knownName]);

  useEffect(() => {
    if (field.type !== 'image' || !value) { setPreview(null); return; }
    let url: string | null = null;
    let live = true;
    fetchFileBlob(value).then(({ blob }) => { if (live) { url = URL.createObjectURL(blob); setPreview(url); } }, () => undefined);
    return () => { live = false; if (url) URL.revokeObjectURL(url); };
  }, [value, field.type]);

  const pick = async (files: FileList | null) => {
    const f = files?.[0];
    if (!f) return;
    setProgress(0);
    const [stored] = await uploadFiles([f], category, setProgress);
    setProgress(null);
    if (input.current) input.current.value = '';
    if (!stored) return; // the upload already told the person what went wrong
    rememberFileName(stored.id, stored.file_name);
    setName(stored.file_name);
    onChange(stored.id);
    onUploaded?.(stored);
  };

  const busy = progress !== null;
  return (
    <div className={`bo-file ${invalid ? 'p-invalid' : ''}`} data-file-field={id}>
      {preview && <img className="bo-file-preview" src={preview} alt={name ?? ''} />}
      {value && (
        <span className="bo-file-current">
          <i className={`pi ${field.type === 'image' ? 'pi-image' : 'pi-file'}`} aria-hidden="true" />
          <a href={`/api/file/${encodeURIComponent(value)}`} className="bo-file-name" title={t('file.download')}
            onClick={(e) => { e.preventDefault(); void downloadFile(value, name ?? undefined); }}>
            {name ?? value}
          </a>
          {!disabled && (
            <button type="button" className="bo-file-remove" aria-label={`${t('file.remove')} ${name ?? ''}`} onClick={() => onChange(null)}>
              <i className="pi pi-times" aria-hidden="true" />
            </button>
          )}
        </span>
      )}
      {!disabled && (
        <label className={`p-button p-component p-button-outlined p-button-sm bo-file-pick ${busy ? 'p-disabled' : ''}`}>
          <i className="pi pi-upload" aria-hidden="true" />
          <span>{value ? t('file.replace') : t('file.choose')}</span>
          <input ref={input} id={id} type="file" className="bo-sr-only" accept={acceptAttr(field)} disabled={busy}
            aria-label={ariaLabel} aria-describedby={describedBy} aria-invalid={invalid || undefined}
            onChange={(e) => void pick(e.target.files)} />
        </label>
      )}
      {busy && (
        <span className="bo-file-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} aria-label={t('file.uploading')}>
          <span className="bo-file-bar"><span style={{ width: `${progress}%` }} /></span>
          <span className="bo-file-percent">{progress}%</span>
        </span>
      )}
      {!value && !busy && disabled && <span className="bo-muted">—</span>}
      {!value && !busy && !disabled && <span className="bo-muted bo-file-none">{t('file.none')}</span>}
    </div>
  );
}
