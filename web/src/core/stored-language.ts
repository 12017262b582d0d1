// Without i18next: the boot entry (web/src/boot.ts) sends the reader's language with the start-up calls.

export const LANGUAGE_KEY = 'language';
export const DEFAULT_LANGUAGE = 'th';
export type Lang = 'th' | 'en';

export function storedLanguage(): Lang {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return v === 'en' || v === 'th' ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}
