/**
 * What a file really is, from its first bytes; the name's extension must agree.
 * Only these types are accepted as uploads.
 */
export interface SniffedType {
  mime: string;
  extensions: string[];
}

const ZIP_OFFICE: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const starts = (b: Buffer, bytes: number[], offset = 0) => bytes.every((x, i) => b[offset + i] === x);

export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return m ? m[1]!.toLowerCase() : '';
}

function isText(b: Buffer): boolean {
  if (b.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

export function sniff(content: Buffer, name: string): SniffedType | null {
  const ext = extensionOf(name);
  if (starts(content, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { mime: 'application/pdf', extensions: ['pdf'] };
  if (starts(content, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', extensions: ['png'] };
  if (starts(content, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] };
  if (starts(content, [0x47, 0x49, 0x46, 0x38])) return { mime: 'image/gif', extensions: ['gif'] };
  if (starts(content, [0x52, 0x49, 0x46, 0x46]) && starts(content, [0x57, 0x45, 0x42, 0x50], 8)) return { mime: 'image/webp', extensions: ['webp'] };
  if (starts(content, [0x50, 0x4b, 0x03, 0x04]) && ZIP_OFFICE[ext]) return { mime: ZIP_OFFICE[ext]!, extensions: [ext] };
  if ((ext === 'csv' || ext === 'txt') && isText(content)) return { mime: ext === 'csv' ? 'text/csv' : 'text/plain', extensions: [ext] };
  return null;
}

export const ALLOWED_DESCRIPTION = 'PDF, PNG, JPEG, GIF, WebP, Word/Excel/PowerPoint (docx, xlsx, pptx), CSV or plain text';

/** The name a person gave the file, without any folder part or control characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').replace(/^\.+/, '').trim().slice(0, 200);
  return clean || 'file';
}
