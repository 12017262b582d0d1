import nodemailer, { type Transporter } from 'nodemailer';

export interface MailSettings {
  /** smtp://user:pass@host:587 or smtps://...:465; nodemailer reads TLS and auth from it. */
  smtpUrl: string;
  /** The From address of every message. */
  from: string;
}

export interface OutgoingMail {
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  attachments: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export const MAIL_TIMEOUTS = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 8000, dnsTimeout: 5000 };

/** Whether sending failed because the mail server could not be reached (rather than refusing the message). */
export function mailServerUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET'].includes(code);
}

/** One SMTP transport per app, created on first use so a wrong URL shows up on the first email, not at start. */
export class Mailer {
  private transport: Transporter | null = null;

  constructor(private readonly settings: MailSettings) {}

  async send(mail: OutgoingMail): Promise<string> {
    // bounded: nodemailer's defaults wait 2 minutes for a connection and 10 for a silent server, long
    // past SHUTDOWN_TIMEOUT_MS; a dead mail server answers 503 within seconds (options in SMTP_URL's query win)
    this.transport ??= nodemailer.createTransport({ url: this.settings.smtpUrl, ...MAIL_TIMEOUTS });
    const info = await this.transport.sendMail({ from: this.settings.from, ...mail });
    return String(info.messageId ?? '');
  }

  close(): void {
    this.transport?.close();
  }
}
