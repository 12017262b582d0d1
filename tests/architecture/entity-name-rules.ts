/**
 * Issue 46 §2: no entity is named in code. A feature finds the entities it owns or stands on through the
 * schemas (a link's target, a `holds`, `party`, `siteSettings`, `access.companyField` key), and the web gets
 * them from the meta API, so an entity renamed or replaced in schemas/ needs no change in server/ or web/src/.
 * The rule reads one file's text with the TypeScript parser, so comments are not code and a JSX attribute
 * (`role="alert"`, `data-testid="product"`) is told apart from a string the code uses.
 */
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './import-graph.ts';

/** The entity names of the schemas (each file's `name`). */
export function schemaEntityNames(): Set<string> {
  const dir = join(ROOT, 'schemas');
  return new Set(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => String((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name: string }).name)));
}

/** A table named in SQL text: `from x`, `join x`, `into x`, `update x`, `table x`, an index `on x (…)`. */
const SQL_TABLE = /\b(?:from|join|into|update|table)\s+"?([a-z_][a-z0-9_]*)"?|\bon\s+"?([a-z_][a-z0-9_]*)"?\s*\(/gi;

export interface NameHit { line: number; name: string }

/**
 * The entity names a source uses as string literals: a string (or template) that is exactly a name, a Kysely
 * table with its alias (`'product as p'`), or SQL text that names one as a table. Not a hit: comments, JSX
 * attribute values, and in a feature's own file (`server/<folder>/<folder>-feature.ts`) the feature's `name`,
 * which is the folder's name whether or not an entity shares it (`pos`, `barcodes`).
 */
export function entityNameLiterals(source: string, names: ReadonlySet<string>, opts: { tsx?: boolean; featureName?: string } = {}): NameHit[] {
  const file = ts.createSourceFile(opts.tsx ? 'x.tsx' : 'x.ts', source, ts.ScriptTarget.Latest, true, opts.tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const hits: NameHit[] = [];
  const hit = (node: ts.Node, name: string) => hits.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, name });
  const featureName = (node: ts.Node) => opts.featureName !== undefined && ts.isPropertyAssignment(node.parent)
    && node.parent.initializer === node && ts.isIdentifier(node.parent.name) && node.parent.name.text === 'name' && (node as ts.StringLiteral).text === opts.featureName;
  const visit = (node: ts.Node) => {
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
    const part = ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node);
    if ((literal || part) && !ts.isJsxAttribute(node.parent) && !featureName(node)) {
      const text = (node as ts.LiteralLikeNode).text;
      const table = /^([a-z_][a-z0-9_]*)(?: as \w+)?$/.exec(text)?.[1];
      if (literal && table && names.has(table)) hit(node, table);
      else for (const m of text.matchAll(SQL_TABLE)) { const n = m[1] ?? m[2]!; if (names.has(n)) hit(node, n); }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return hits;
}

/** The feature name a file may carry: `pos` in server/pos/pos-feature.ts. */
export function featureNameOf(path: string): string | undefined {
  const m = /^server\/([a-z0-9_-]+)\/([a-z0-9_-]+)-feature\.ts$/.exec(path);
  return m && m[1] === m[2] ? m[1] : undefined;
}
