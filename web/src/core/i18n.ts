import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_EN, FALLBACK_TH } from './i18n-bundles.ts';
import { setLanguageSource } from './http-client.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_KEY, storedLanguage, type Lang } from './stored-language.ts';

export { DEFAULT_LANGUAGE, LANGUAGE_KEY, storedLanguage, type Lang } from './stored-language.ts';

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  resources: { th: { translation: FALLBACK_TH }, en: { translation: FALLBACK_EN } },
  // server detail_keys are flat strings that may contain dots
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnEmptyString: false,
});

// API errors read in the chosen language (engine/errors/error-texts.ts)
setLanguageSource(() => (i18n.language === 'en' ? 'en' : 'th'));

export function setLanguage(lang: Lang): void {
  localStorage.setItem(LANGUAGE_KEY, lang);
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

export interface LanguageContentRow {
  detail_key: string;
  th?: string | null;
  en?: string | null;
}

/** The server's language content overrides the shipped fallbacks, key by key. */
export function applyLanguageContent(rows: LanguageContentRow[]): void {
  const th: Record<string, string> = {};
  const en: Record<string, string> = {};
  for (const r of rows) {
    if (!r?.detail_key) continue;
    if (r.th) th[r.detail_key] = r.th;
    if (r.en) en[r.detail_key] = r.en;
  }
  // the keys are flat (keySeparator: false), so a shallow merge is the same as a deep one; a deep merge of a fresh
  // copy (i18next's default) cost tens of ms of main thread on every cold start, before the first screen showed
  i18n.addResourceBundle('th', 'translation', th, false, true, { silent: false, skipCopy: true });
  i18n.addResourceBundle('en', 'translation', en, false, true, { silent: false, skipCopy: true });
  void i18n.changeLanguage(i18n.language);
}

/** A schema label in the current language. */
export function loc(text: { th: string; en: string } | undefined, lang: string = i18n.language): string {
  if (!text) return '';
  return (lang === 'en' ? text.en : text.th) || text.th || text.en;
}
