import { atom } from 'jotai';
import { appStore } from './app-store.ts';
import { clearMetaCache } from './entity-meta.ts';
import { loadTranslations } from './app-data.ts';
import { forgetLoadedVersions, oldestLoadedVersion } from './loaded-version.ts';

/** What the server sends as `schema-changed` when runtime overrides (page settings) move to a new version. */
export interface SchemaChange {
  version: number;
  entities?: string[];
}

/**
 * Moves by one each time the server says the page settings changed; every open
 * list and form reads its schema again when it moves (useEntitySchema), so it
 * re-renders with the new labels, columns and rules without a reload.
 */
export const schemaRevisionAtom = atom(0);

let latest = 0;

/** Drops the cached schemas, reloads the labels (the language content carries field labels), then tells the screens. */
export async function applySchemaChange(change: SchemaChange): Promise<void> {
  if (typeof change?.version !== 'number' || change.version <= latest) return;
  latest = change.version;
  // the announcement each socket hears as it connects: nothing to do when what is shown already has it
  const shown = oldestLoadedVersion();
  if (shown !== undefined && change.version <= shown) return;
  await refreshSchemas();
}

/** Reads the schemas and labels again, when the server announces a version newer than what is shown. */
export async function refreshSchemas(): Promise<void> {
  forgetLoadedVersions();
  clearMetaCache();
  await loadTranslations();
  appStore.set(schemaRevisionAtom, (n) => n + 1);
}
