/** SMTP_URL and MAIL_FROM as readConfig reads them: both or neither, and only smtp(s) URLs. */
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config/app-config.ts';

const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/nonexistent-data-dir-for-tests' };

describe('mail settings from the environment', () => {
  it('are absent when neither variable is set', () => {
    expect(readConfig({ ...base }).mail).toBeUndefined();
  });

  it('are read when both are set', () => {
    expect(readConfig({ ...base, SMTP_URL: 'smtp://u:p@mail.example.com:587', MAIL_FROM: 'Billing <billing@example.co.th>' }).mail)
      .toEqual({ smtpUrl: 'smtp://u:p@mail.example.com:587', from: 'Billing <billing@example.co.th>' });
  });

  it('refuse one without the other, and a URL that is not smtp:// or smtps://', () => {
    expect(() => readConfig({ ...base, SMTP_URL: 'smtp://mail.example.com' })).toThrow(/MAIL_FROM/);
    expect(() => readConfig({ ...base, MAIL_FROM: 'a@example.com' })).toThrow(/SMTP_URL/);
    expect(() => readConfig({ ...base, SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@example.com' })).toThrow(/smtp:\/\//);
  });
});
