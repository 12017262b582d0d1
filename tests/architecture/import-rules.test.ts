/**
 * Arrows that run one way (issue 35 §4): no import loops anywhere in the
 * sources, engine/ imports neither server/ nor web/, and inside server/ the
 * lower folders do not reach up. Fails when one of these comes back.
 */
import { describe, expect, it } from 'vitest';
import { importGraph, importLoops } from './import-graph.ts';

const graph = importGraph(['engine', 'server', 'web/src', 'scripts', 'seed']);
const edges = [...graph].flatMap(([from, to]) => to.map((t) => ({ from, to: t })));
const crossing = (from: RegExp, to: RegExp, except: (f: string) => boolean = () => false) =>
  edges.filter((e) => from.test(e.from) && to.test(e.to) && !except(e.from)).map((e) => `${e.from} → ${e.to}`);

describe('the import graph', () => {
  it('is read from the sources (type imports and dynamic imports included)', () => {
    expect(graph.size).toBeGreaterThan(250);
    // a type-only import is an edge: screen-menu.ts names the menu's types
    expect(graph.get('server/session/screen-menu.ts')).toContain('server/session/menu-types.ts');
    // a dynamic import is an edge: the start script loads the server lazily
    expect(graph.get('server/main.ts')).toContain('server/bootstrap.ts');
    expect(importLoops(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });

  it('has no loops', () => {
    expect(importLoops(graph)).toEqual([]);
  });

  it('keeps engine/ shared: it imports neither server/ nor web/', () => {
    expect(crossing(/^engine\//, /^(server|web)\//)).toEqual([]);
  });

  it('keeps the server\'s folders in one direction', () => {
    expect(crossing(/^server\/config\//, /^server\/(auth|files)\//)).toEqual([]);
    expect(crossing(/^server\/crud\//, /^server\/documents\//)).toEqual([]);
    // the demo data is handed to the server by its start (server/main.ts), never imported by the server itself
    expect(crossing(/^server\//, /^seed\//, (f) => f === 'server/main.ts')).toEqual([]);
    expect(crossing(/^(server|engine|web\/src)\//, /^(scripts|tests)\//)).toEqual([]);
  });
});
