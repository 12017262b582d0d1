/** Issue 46 §2: the declared screens (schemas/screens/screens.json) are checked as they are read, naming the bad entry. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadScreenSet, portalEntity, ScreenLoadError, type ScreenProblem } from './screen-loader.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import uiStrings from '../../server/session/ui-strings.json' with { type: 'json' };

const root = resolve(import.meta.dirname, '../..');
const declared = JSON.parse(readFileSync(resolve(root, 'schemas/screens/screens.json'), 'utf8')) as { screens: Record<string, any>[] };
const entities = new Set(readSchemaDir(resolve(root, 'schemas')).map((e) => e.name));
const groups = new Set(uiStrings.filter((s) => s.detail_key.startsWith('menu.')).map((s) => s.detail_key.slice(5)));
const ctx = { entity: (n: string) => entities.has(n), group: (g: string) => groups.has(g) };

const screen = (extra: Record<string, unknown> = {}) => ({ name: 'thing_board', title: { th: 'กระดาน', en: 'Board' }, routes: [{ path: '/thing_board', kind: 'report', screen: 'board' }], ...extra });
const menu = { group: 'sales', key: 'thing_board', icon: 'pi pi-table' };

function problemsOf(screens: unknown[]): ScreenProblem[] {
  try {
    loadScreenSet({ screens }, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(ScreenLoadError);
    return (err as ScreenLoadError).problems;
  }
  return [];
}

describe('the screens file', () => {
  it('loads, naming only entities and menu groups that exist', () => {
    const screens = loadScreenSet(declared, ctx);
    expect(screens.length).toBe(declared.screens.length);
    expect(portalEntity(screens)).toBe('billing_note');
  });

  it('refuses a menu screen whose right has no flag, naming the screen and where', () => {
    const problems = problemsOf([...declared.screens, screen({ menu, needs: { right: 'thing' } })]);
    expect(problems).toEqual([{ file: 'screens/screens.json', pointer: `/screens/${declared.screens.length}/needs`, reason: expect.stringMatching(/flag.*\(screen "thing_board"\)/) }]);
    expect(() => loadScreenSet({ screens: [screen({ menu, needs: { right: 'thing' } })] })).toThrow(/screens\/screens.json \/screens\/0\/needs: a right needs its flag/);
  });

  it('refuses a menu screen that says nothing of what it needs, and other bad entries', () => {
    expect(problemsOf([screen({ menu })]).map((p) => p.pointer)).toEqual(['/screens/0/needs']);
    expect(problemsOf([screen({ menu, needs: { entity: 'no_such' } })])[0]!.reason).toMatch(/unknown entity "no_such"/);
    expect(problemsOf([screen({ menu: { ...menu, group: 'nowhere' }, needs: { administrator: true } })])[0]!.pointer).toBe('/screens/0/menu/group');
    expect(problemsOf([screen(), screen()]).map((p) => p.reason)).toEqual([expect.stringMatching(/"thing_board" is declared twice/), expect.stringMatching(/"\/thing_board" is declared twice/)]);
    expect(problemsOf([screen({ routes: [{ path: '/x', kind: 'board' }] })])[0]!.pointer).toBe('/screens/0/routes/0/kind');
    expect(problemsOf([screen({ needs: { administrator: true } })])[0]!.reason).toMatch(/is for a screen in the menu/);
    expect(problemsOf([screen({ title: { th: 'กระดาน' } })])[0]!.pointer).toBe('/screens/0/title');
    expect(problemsOf([screen({ menu, needs: { right: 'thing', flag: 'view' } })])).toEqual([]);
  });
});
