import type { FieldDef } from '../../../engine/schema/schema-types.ts';
import { scaleOf } from '../field-codec.ts';

const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * A SQL expression that gives one row as the JSON the API sends for it, in UTF-8 bytes: the same value as
 * `JSON.stringify` of the row decoded by `field-codec.ts` (`rowDecoder`), made by SQLite, so a
 * list page's rows are never turned into JavaScript values, decoded and stringified again (with the
 * bytes kept as bytes, a 20-product list took 26 % fewer instructions: docs/performance.md).
 * The conversions mirror `fromDb`:
 * - boolean: stored 0/1, `true` only for 1;
 * - money and decimal: scaled integers divided by 10^scale as a double. SQLite writes a double
 *   with the digits that read back as the same double, and IEEE division of two exact operands
 *   gives the double `unscale` gives, so a client parses the same number ("650.0" is 650);
 * - json: stored as text, embedded as JSON;
 * - everything else as stored (text, integers, ISO datetimes).
 * `tests/db/sqlite-row-json.test.ts` holds this equal to the codec for every field type.
 * Names go into the SQL as they are: the schema loader admits only identifiers, as for the list's
 * plain columns; anything else is refused here rather than written into SQL.
 */
export function sqliteRowJson(alias: string, columns: ReadonlyArray<readonly [string, FieldDef | undefined]>): string {
  for (const name of [alias, ...columns.map(([n]) => n)]) if (!NAME.test(name)) throw new Error(`not an identifier: ${JSON.stringify(name)}`);
  const parts = columns.map(([name, def]) => `'${name}', ${valueSql(`"${alias}"."${name}"`, def)}`);
  // as a blob: the UTF-8 bytes go out as they are, never decoded into a JavaScript string and encoded again
  return `cast(json_object(${parts.join(', ')}) as blob)`;
}

function valueSql(column: string, def: FieldDef | undefined): string {
  switch (def?.type) {
    case 'boolean':
      return `CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} = 1 THEN json('true') ELSE json('false') END`;
    case 'money': case 'decimal': {
      const scale = scaleOf(def);
      return scale === 0 ? column : `${column} / ${10 ** scale}.0`;
    }
    case 'json':
      return `json(${column})`;
    default:
      return column;
  }
}
