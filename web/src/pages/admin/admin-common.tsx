import { useTranslation } from 'react-i18next';
import { ApiError, download, saveBlob } from '../../core/http-client.ts';
import './admin-i18n.ts';
import './admin.css';

const FLAGS = ['view', 'edit', 'print', 'export', 'email'] as const;

/** The same rule as the server (docs/permissions.md): every flag on "*", or view and edit on db_manage. */
export function isAdministrator(detail: Record<string, Record<string, boolean | undefined>> | undefined): boolean {
  if (!detail) return false;
  const star = detail['*'];
  if (star && FLAGS.every((f) => star[f] === true)) return true;
  return detail.db_manage?.view === true && detail.db_manage?.edit === true;
}

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The server's refusal, shown in full where the person acted (not only a passing toast). */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  const status = error instanceof ApiError ? error.status : 0;
  const heading = title ?? (status === 403 ? t('admin.refused') : t('common.error'));
  const fields = error instanceof ApiError ? error.fields : [];
  return (
    <div className="bo-admin-error" role="alert">
      <strong>{heading}</strong>
      <span>{errorText(error)}</span>
      {fields.length > 0 && <ul>{fields.map((f) => <li key={f.field}>{f.field}: {f.message}</li>)}</ul>}
    </div>
  );
}

/** A GET that answers a file, saved under the name the server suggests (the HTTP client's download and saveBlob). */
export async function downloadBlob(url: string, fallbackName: string): Promise<void> {
  const at = new URL(url, window.location.origin);
  const { blob, fileName } = await download(at.pathname, Object.fromEntries(at.searchParams));
  saveBlob(blob, fileName ?? fallbackName);
}

export function formatDateTime(iso: string | null | undefined, lang: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(lang === 'en' ? 'en-GB' : 'th-TH', { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatDate(date: string, lang: string): string {
  const d = new Date(`${date}T00:00:00`);
  if (Number.isNaN(d.getTime())) return date;
  return d.toLocaleDateString(lang === 'en' ? 'en-GB' : 'th-TH', { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}
