import { appStore } from './app-store.ts';
import { sessionAtom } from './session-atoms.ts';
import { ApiError, CANNOT_CONNECT } from './api-error.ts';
import { toast } from './toast-bus.ts';
import { i18n } from './i18n.ts';
import { errorText, type TextParams } from '../../../engine/errors/error-texts.ts';

/** One stored file as POST /api/file/upload/{category} answers it. */
export interface UploadedFile {
  id: string;
  file_name: string;
  mime_type: string;
  size: number;
  category?: string;
  url: string;
}

export const DEFAULT_UPLOAD_CATEGORY = 'default';

function token(): string {
  return appStore.get(sessionAtom).id_token;
}

function errorOf(xhr: XMLHttpRequest): ApiError {
  const lang = i18n.language === 'en' ? 'en' : 'th';
  if (xhr.status === 0) return new ApiError(408, errorText('NO_RESPONSE', {}, lang) ?? CANNOT_CONNECT, 'NO_RESPONSE');
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { code?: string; message?: string; params?: TextParams } };
    const code = body.error?.code ?? `HTTP_${xhr.status}`;
    // the upload's own wording names the file and the limit, so it is kept in English; the code's text leads
    const text = errorText(code, body.error?.params, lang);
    const message = text && lang === 'th' ? `${text}${body.error?.message ? ` (${body.error.message})` : ''}` : body.error?.message ?? `HTTP ${xhr.status}`;
    return new ApiError(xhr.status, message, code);
  } catch {
    return new ApiError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`);
  }
}

/** The raw upload: multipart with the Bearer token, progress in percent (XMLHttpRequest reports upload progress on every transport). */
export function sendFiles(files: File[], category: string, onProgress?: (percent: number) => void): Promise<UploadedFile[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('file', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/file/upload/${encodeURIComponent(category || DEFAULT_UPLOAD_CATEGORY)}`);
    const tok = token();
    if (tok) xhr.setRequestHeader('Authorization', `Bearer ${tok}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => { if (e.lengthComputable && onProgress) onProgress(Math.round((e.loaded / e.total) * 100)); };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as { data?: UploadedFile[] };
          onProgress?.(100);
          resolve(Array.isArray(body.data) ? body.data : []);
        } catch {
          reject(new ApiError(xhr.status, 'Bad response from server'));
        }
      } else reject(errorOf(xhr));
    };
    xhr.onerror = () => reject(new ApiError(408, CANNOT_CONNECT, 'NO_RESPONSE'));
    xhr.send(form);
  });
}

/**
 * Spec section 7/8: upload with progress; an error is logged and swallowed
 * and the call answers an empty list, while the person sees a toast.
 */
export async function uploadFiles(files: File[], category = DEFAULT_UPLOAD_CATEGORY, onProgress?: (percent: number) => void): Promise<UploadedFile[]> {
  try {
    return await sendFiles(files, category, onProgress);
  } catch (err) {
    console.error('file upload failed:', err);
    toast('error', i18n.t('file.upload_failed'), err instanceof Error ? err.message : String(err));
    return [];
  }
}

function nameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) { try { return decodeURIComponent(star[1]!); } catch { /* fall through */ } }
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain ? plain[1]! : null;
}

const names = new Map<string, Promise<string | null>>();

/** The stored (original) name of a file id, from the download's Content-Disposition (a HEAD request, no body). */
export function fileName(id: string): Promise<string | null> {
  let p = names.get(id);
  if (!p) {
    p = fetch(`/api/file/${encodeURIComponent(id)}`, { method: 'HEAD', headers: { Authorization: `Bearer ${token()}` } })
      .then((r) => (r.ok ? nameFromDisposition(r.headers.get('content-disposition')) : null), () => null);
    p.then((n) => { if (n === null) names.delete(id); }, () => names.delete(id));
    names.set(id, p);
  }
  return p;
}

export function rememberFileName(id: string, name: string): void {
  names.set(id, Promise.resolve(name));
}

/** GET /api/file/{id} with the token as a blob. */
export async function fetchFileBlob(id: string): Promise<{ blob: Blob; name: string | null }> {
  const tok = token();
  const res = await fetch(`/api/file/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${tok}`, 'x-access-token': tok } })
    .catch(() => { throw new ApiError(408, CANNOT_CONNECT, 'NO_RESPONSE'); });
  if (!res.ok) {
    let message = `HTTP ${res.status}`;
    try { message = ((await res.json()) as { error?: { message?: string } }).error?.message ?? message; } catch { /* not JSON */ }
    throw new ApiError(res.status, message);
  }
  return { blob: await res.blob(), name: nameFromDisposition(res.headers.get('content-disposition')) };
}

/** Downloads a stored file: blob, then a temporary object URL clicked as a link. */
export async function downloadFile(id: string, name?: string): Promise<void> {
  try {
    const { blob, name: stored } = await fetchFileBlob(id);
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name || stored || id;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    console.error('file download failed:', err);
    toast('error', i18n.t('file.download_failed'), err instanceof Error ? err.message : String(err));
  }
}

export function formatBytes(n: number | null | undefined): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
