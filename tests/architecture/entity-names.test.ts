/**
 * Issue 46 §2, done when: no entity name as a string literal outside schemas, the loader and tests. A feature
 * finds its entities through the schemas (`holds`, a link's target, `party`, `siteSettings`); the web gets them
 * from the meta API and the screens file. The rule (entity-name-rules.ts) reads each source of server/ and
 * web/src/ with the TypeScript parser: comments and JSX attribute values are not names.
 */
import { describe, expect, it } from 'vitest';
import { readSource, sourcesUnder } from './source-rules.ts';
import { entityNameLiterals, featureNameOf, schemaEntityNames } from './entity-name-rules.ts';

/**
 * The literals left, each with why: words spelled like an entity that name something else (a movement type, a
 * field error code, a posting role, a request field, an option value).
 */
const EXCEPTIONS: { file: string; name: string; why: string }[] = [
  { file: 'server/stock/stock-documents.ts', name: 'receipt', why: 'an option of stock_movement.movement_type (a movement in), not the receipt entity' },
  { file: 'server/stock/stock-posting.ts', name: 'inventory', why: 'a field error code of the error catalogue (engine/errors/error-texts.ts FIELD_TEXTS.inventory), not the entity' },
  { file: 'server/ledger/journal-posting.ts', name: 'inventory', why: 'the posting role `inventory` (account.role), not the entity' },
  { file: 'server/ledger/stock-adjustment-posting.ts', name: 'inventory', why: 'the posting role `inventory` (account.role), not the entity' },
  { file: 'server/ledger/year-close.ts', name: 'company', why: 'the request field `company` of POST /api/ledger/close-year named in its 400, not the entity' },
  { file: 'server/print/withholding-pdf.ts', name: 'customer', why: 'an option of withholding_tax.payee_type (the payee is a customer or a supplier), not the entity' },
];

const NAMES = ['product', 'stock_movement', 'alert', 'customer', 'pos', 'user_account'];
const names = new Set(NAMES);

describe('entity names in code', () => {
  it('are found in a made-up source: exact strings, a table with its alias, SQL text; not comments or JSX attributes', () => {
    const source = [
      "const a = await k.selectFrom('product').selectAll();",                    // 1: a hit
      "const b = k.selectFrom('stock_movement as m');",                          // 2: a hit
      'const c = sql`select count(*) from stock_movement where x`;',             // 3: a hit
      '// the entity product is read here: \'product\'',                          // 4: a comment
      ' * selectFrom(\'customer\') in a block comment',                           // 5: inside /* */ below
      "const d = <p role=\"alert\" data-testid=\"product\">{t('alert.none')}</p>;", // 6: JSX attributes and an i18n key
      "const e = `/api/${name}/x`; const f = 'product_id'; const g = 'products';", // 7: none
      "const h = \"customer\";",                                                  // 8: a hit
      "if (kind === 'user_account') return;",                                     // 9: a hit
      'await sql`create index if not exists ix on stock_movement (movement_date)`;', // 10: a hit
    ];
    const text = source.map((l, i) => (i === 4 ? `/*\n${l}\n */` : l)).join('\n');
    const lines = entityNameLiterals(text, names, { tsx: true }).map((h) => `${h.line}:${h.name}`);
    // line numbers after the block comment moved two down (its opening and closing lines)
    expect(lines).toEqual(['1:product', '2:stock_movement', '3:stock_movement', '10:customer', '11:user_account', '12:stock_movement']);
  });

  it('leave a feature its own name, and only in its own feature file', () => {
    const source = "export const posFeature = { name: 'pos', tables: [] };\nconst x = { name: 'pos' };";
    expect(entityNameLiterals(source, names, { featureName: featureNameOf('server/pos/pos-feature.ts') }).map((h) => h.line)).toEqual([]);
    expect(featureNameOf('server/pos/sale-return.ts')).toBeUndefined();
    expect(entityNameLiterals(source, names).map((h) => h.line)).toEqual([1, 2]);
  });

  it('are none in server/ and web/src/ but the listed exceptions', () => {
    const all = schemaEntityNames();
    expect(all.has('product') && all.has('stock_movement')).toBe(true);
    const files = [...sourcesUnder('server'), ...sourcesUnder('web/src')];
    expect(files.length).toBeGreaterThan(300);
    const found = new Set<string>();
    const unexpected: string[] = [];
    for (const file of files) {
      for (const h of entityNameLiterals(readSource(file), all, { tsx: file.endsWith('.tsx'), featureName: featureNameOf(file) })) {
        if (EXCEPTIONS.some((x) => x.file === file && x.name === h.name)) found.add(`${file}:${h.name}`);
        else unexpected.push(`${file}:${h.line}: '${h.name}'`);
      }
    }
    expect(unexpected).toEqual([]);
    // an exception no longer needed is taken off the list
    expect(EXCEPTIONS.map((x) => `${x.file}:${x.name}`).filter((k) => !found.has(k))).toEqual([]);
  });
});
