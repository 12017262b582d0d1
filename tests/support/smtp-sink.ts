import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail { from: string; to: string[]; raw: string }

/** An SMTP server on 127.0.0.1 (a free port) that keeps every message it is given. */
export async function smtpSink(): Promise<{ url: string; messages: ReceivedMail[]; close(): Promise<void> }> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** The bytes of the first application/pdf part of a MIME message (nodemailer sends it base64). */
export function pdfAttachment(raw: string): { filename: string; bytes: Buffer } | null {
  const m = /Content-Type: application\/pdf;?[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n((?:[^\r\n]+\r\n)*?)\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/i.exec(raw);
  if (!m) return null;
  const filename = /filename="?([^"\r\n;]+)"?/i.exec(raw.slice(m.index))?.[1] ?? '';
  return { filename, bytes: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') };
}
