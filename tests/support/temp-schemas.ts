import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMAS_DIR } from './test-app.ts';

/** A temporary schemas folder holding the given entity files (and, with `copyReal`, every file of schemas/). */
export function tempSchemasDir(entities: Record<string, unknown>[], copyReal = false): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bo-schemas-'));
  if (copyReal) cpSync(SCHEMAS_DIR, dir, { recursive: true });
  for (const e of entities) writeFileSync(join(dir, `${(e as { name: string }).name}.json`), JSON.stringify(e, null, 2));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A localized label for fixtures. */
export const label = (en: string) => ({ th: en, en });
