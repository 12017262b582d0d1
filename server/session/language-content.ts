import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import uiStrings from './ui-strings.json' with { type: 'json' };
import { DECLARED_SCREENS } from '../../engine/schema/declared-screens.ts';

export interface ContentEntry {
  detail_key: string;
  th: string;
  en: string;
}

export const LANGUAGES = [
  { code: 'th', name: 'ไทย' },
  { code: 'en', name: 'English' },
];

export function menuGroups(): Record<string, { th: string; en: string }> {
  const out: Record<string, { th: string; en: string }> = {};
  for (const e of uiStrings as ContentEntry[]) {
    if (e.detail_key.startsWith('menu.')) out[e.detail_key.slice(5)] = { th: e.th, en: e.en };
  }
  return out;
}

/**
 * Every label the web shows: the UI's own strings plus, from the schemas,
 * entity.<name>, entity.<name>.plural and field.<entity>.<field> (merged, so admin overrides show),
 * and route.<name>, the titles of the declared screens (schemas/screens/screens.json).
 */
export function languageContent(registry: SchemaRegistry): ContentEntry[] {
  const out: ContentEntry[] = [...(uiStrings as ContentEntry[])];
  for (const s of DECLARED_SCREENS) out.push({ detail_key: `route.${s.name}`, ...s.title });
  for (const e of registry.all()) {
    out.push({ detail_key: `entity.${e.name}`, ...e.label });
    out.push({ detail_key: `entity.${e.name}.plural`, ...(e.labelPlural ?? e.label) });
    for (const [name, f] of Object.entries(e.fields)) {
      out.push({ detail_key: `field.${e.name}.${name}`, ...f.label });
      for (const o of f.options ?? []) out.push({ detail_key: `option.${e.name}.${name}.${o.value}`, ...o.label });
    }
  }
  return out;
}
