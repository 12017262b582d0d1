/**
 * Arrows that run one way (issue 35 §4, issue 46 §1): no import loops anywhere in the
 * sources, no two server folders importing each other (even through others),
 * engine/ imports neither server/ nor web/, nothing but seed/ itself (and the
 * tests and scripts that stand on it) imports seed/, and inside server/ the
 * lower folders do not reach up. Fails when one of these comes back.
 */
import { describe, expect, it } from 'vitest';
import { arrowsBetween, folderGraph, folderOf, importGraph, importLoops } from './import-graph.ts';

const graph = importGraph(['engine', 'server', 'web/src', 'scripts', 'seed']);
const edges = [...graph].flatMap(([from, to]) => to.map((t) => ({ from, to: t })));
const crossing = (from: RegExp, to: RegExp, except: (f: string) => boolean = () => false) =>
  edges.filter((e) => from.test(e.from) && to.test(e.to) && !except(e.from)).map((e) => `${e.from} → ${e.to}`);

describe('the import graph', () => {
  it('is read from the sources (type imports and dynamic imports included)', () => {
    expect(graph.size).toBeGreaterThan(250);
    // a type-only import is an edge: screen-menu.ts names the menu's types
    expect(graph.get('server/session/screen-menu.ts')).toContain('server/menu/menu-types.ts');
    // a dynamic import is an edge: the start script loads the server lazily
    expect(graph.get('server/main.ts')).toContain('server/bootstrap.ts');
    expect(importLoops(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });

  it('has no loops', () => {
    expect(importLoops(graph)).toEqual([]);
  });

  it('has no circle between folders: no two server folders (the root files count as "server") import each other', () => {
    const circles = importLoops(folderGraph(graph));
    // the files behind each arrow of a circle, so a failure says what to move
    expect(circles.map((c) => ({ folders: c, arrows: arrowsBetween(graph, c) }))).toEqual([]);
  });

  it('finds a circle between folders when one is added (a synthetic graph)', () => {
    const clean = new Map([
      ['server/app.ts', ['server/features.ts']],
      ['server/features.ts', ['server/stock/stock-feature.ts', 'server/barcodes/barcodes-feature.ts']],
      ['server/barcodes/barcodes-feature.ts', ['server/barcodes/scan-posting.ts', 'server/stock/stock-ledger.ts']],
      ['server/barcodes/scan-posting.ts', ['server/crud/entity-service.ts']],
      ['server/stock/stock-feature.ts', ['server/stock/stock-ledger.ts']],
      ['server/stock/stock-ledger.ts', ['server/crud/entity-service.ts']],
      ['server/crud/entity-service.ts', []],
      ['seed/demo-seeder.ts', ['server/bootstrap.ts']],
      ['server/bootstrap.ts', ['server/features.ts']],
    ]);
    expect(folderOf('server/app.ts')).toBe('server');
    expect(folderOf('server/db/postgres/postgres-database.ts')).toBe('server/db');
    expect(folderOf('seed/demo-seeder.ts')).toBe('seed');
    expect(importLoops(clean)).toEqual([]);
    expect(importLoops(folderGraph(clean))).toEqual([]);
    // stock reaching back up to barcodes: no file loop, but the two folders now import each other
    const stockUp = new Map(clean);
    stockUp.set('server/stock/stock-feature.ts', ['server/stock/stock-ledger.ts', 'server/barcodes/scan-posting.ts']);
    expect(importLoops(stockUp)).toEqual([]);
    expect(importLoops(folderGraph(stockUp))).toEqual([['server/barcodes', 'server/stock']]);
    expect(arrowsBetween(stockUp, ['server/barcodes', 'server/stock']).sort()).toEqual([
      'server/barcodes/barcodes-feature.ts → server/stock/stock-ledger.ts', 'server/stock/stock-feature.ts → server/barcodes/scan-posting.ts']);
    // a lower folder importing a root file closes a circle through the root (server → stock → server)
    const rootUp = new Map(clean);
    rootUp.set('server/crud/entity-service.ts', ['server/features.ts']);
    expect(importLoops(folderGraph(rootUp))).toEqual([['server', 'server/barcodes', 'server/crud', 'server/stock']]);
    // and the server importing seed/ (which stands on it) is a circle of its own
    const seedBack = new Map(clean);
    seedBack.set('server/app.ts', ['server/features.ts', 'seed/demo-seeder.ts']);
    expect(importLoops(folderGraph(seedBack))).toEqual([['seed', 'server']]);
  });

  it('keeps seed/ on top: nothing outside seed/ imports it but the tests and scripts (the start hands the seeder over)', () => {
    expect(crossing(/^(?!seed\/|tests\/|scripts\/)/, /^seed\//)).toEqual([]);
    // the process's entry is where the demo data's loader comes from
    expect(graph.get('scripts/server-main.ts')).toEqual(expect.arrayContaining(['server/main.ts', 'seed/demo-seeder.ts']));
  });

  it('keeps engine/ shared: it imports neither server/ nor web/', () => {
    expect(crossing(/^engine\//, /^(server|web)\//)).toEqual([]);
  });

  it('keeps the server\'s folders in one direction', () => {
    expect(crossing(/^server\/config\//, /^server\/(auth|files)\//)).toEqual([]);
    expect(crossing(/^server\/crud\//, /^server\/documents\//)).toEqual([]);
    // the demo data is handed to the server by the process's entry (scripts/server-main.ts), never imported by the server itself
    expect(crossing(/^server\//, /^seed\//)).toEqual([]);
    expect(crossing(/^(server|engine|web\/src)\//, /^(scripts|tests)\//)).toEqual([]);
  });
});
