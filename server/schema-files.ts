import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSchemaSet, type SchemaSource } from '../engine/schema/schema-loader.ts';
import type { EntitySchema } from '../engine/schema/schema-types.ts';

/** Reads every *.json in the schemas folder; a bad file throws SchemaLoadError naming file, pointer and reason. */
export function readSchemaDir(dir: string): EntitySchema[] {
  const sources: SchemaSource[] = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: join(dir, f), text: readFileSync(join(dir, f), "utf8") }));
  return loadSchemaSet(sources);
}
