import { ApiError, saveBlob } from '../../core/http-client.ts';
import { readStoredSession } from '../../core/stored-session.ts';
import { i18n } from '../../core/i18n.ts';

export interface ExportProgress { rows: number | null; total: number; bytes: number }

/**
 * Downloads /api/report/{name}/export (or /pdf) reading the stream as it
 * arrives, so a large export shows its progress: the server sends the row
 * count in x-total-count, a CSV's rows are counted by its line ends, an XLSX
 * (a zip) by the bytes received. Then hands the file to the browser.
 */
export async function downloadReport(path: string, params: Record<string, string>, onProgress: (p: ExportProgress) => void): Promise<void> {
  const token = readStoredSession().id_token;
  const res = await fetch(`${path}?${new URLSearchParams(params).toString()}`, {
    headers: { Accept: '*/*', 'Accept-Language': i18n.language, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(res.status, body?.error?.message ?? res.statusText, body?.error?.code ?? 'HTTP_ERROR');
  }
  const total = Number(res.headers.get('x-total-count') ?? 0);
  const csv = (res.headers.get('content-type') ?? '').startsWith('text/csv');
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    if (csv) for (const b of value) if (b === 10) lines++;
    // the header line is not a row
    onProgress({ rows: csv ? Math.max(0, Math.min(total, lines - 1)) : null, total, bytes });
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const m = /filename\*=UTF-8''([^;]+)|filename="([^"]+)"/i.exec(disposition);
  const name = m ? decodeURIComponent(m[1] ?? m[2]!) : path.split('/').pop()!;
  saveBlob(new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? 'application/octet-stream' }), name);
}
