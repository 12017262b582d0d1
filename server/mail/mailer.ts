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

/** One SMTP transport per app, created on first use so a wrong URL shows up on the first email, not at start. */
export class Mailer {
  private transport: Transporter | null = null;

  constructor(private readonly settings: MailSettings) {}

  async send(mail: OutgoingMail): Promise<string> {
    this.transport ??= nodemailer.createTransport(this.settings.smtpUrl);
    const info = await this.transport.sendMail({ from: this.settings.from, ...mail });
    return String(info.messageId ?? '');
  }

  close(): void {
    this.transport?.close();
  }
}
