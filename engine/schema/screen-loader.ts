import type { ScreenDecl, ScreenNeeds } from './screen-types.ts';
import { SCREEN_ROUTE_KINDS } from './screen-types.ts';

/** Where a problem is: the screens file, a JSON pointer, and the screen's name when it has one. */
export interface ScreenProblem { file: string; pointer: string; reason: string }

/** Thrown at start for a bad screens file; the message names every bad entry (same form as SchemaLoadError). */
export class ScreenLoadError extends Error {
  constructor(readonly problems: ScreenProblem[]) {
    super(`The screens file is not valid:\n${problems.map((p) => `  ${p.file} ${p.pointer || '/'}: ${p.reason}`).join('\n')}`);
  }
}

export const SCREENS_FILE = 'screens/screens.json';
const FLAGS = ['view', 'edit', 'print', 'email', 'export'];
const NAME = /^[a-z][a-z0-9_]*$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown) => isObj(v) && typeof v.th === 'string' && v.th !== '' && typeof v.en === 'string' && v.en !== '';
const unknownKeys = (o: Obj, known: string[]) => Object.keys(o).filter((k) => !known.includes(k));

/** What the server knows to check the names against; left out (the web), only the file's own shape is checked. */
export interface ScreenContext { entity: (name: string) => boolean; group: (name: string) => boolean }

function needsProblem(n: unknown, ctx?: ScreenContext): string | null {
  if (!isObj(n)) return 'needs one of {entity}, {right, flag}, {administrator: true}, {portal: true}';
  const keys = Object.keys(n).sort().join(',');
  if (keys === 'entity') return typeof n.entity !== 'string' ? 'entity must be an entity name' : ctx && !ctx.entity(n.entity) ? `unknown entity "${n.entity}"` : null;
  if (keys === 'flag,right' || keys === 'right') {
    if (typeof n.right !== 'string' || !n.right) return 'right must be a menu key';
    return FLAGS.includes(n.flag as string) ? null : `a right needs its flag, one of ${FLAGS.join(', ')}`;
  }
  if (keys === 'administrator') return n.administrator === true ? null : 'administrator must be true';
  if (keys === 'portal') return n.portal === true ? null : 'portal must be true';
  return 'needs one of {entity}, {right, flag}, {administrator: true}, {portal: true}';
}

/**
 * Checks the declared screens: every screen has a unique name, a title in Thai and English and routes of a
 * known kind; a screen in the menu says in which group, under which key and what it needs (a right with its
 * flag). With `ctx` (the server, at start) the entities and menu groups it names must exist.
 */
export function loadScreenSet(value: unknown, ctx?: ScreenContext, file = SCREENS_FILE): ScreenDecl[] {
  const problems: ScreenProblem[] = [];
  const bad = (pointer: string, reason: string) => problems.push({ file, pointer, reason });
  if (!isObj(value) || !Array.isArray(value.screens)) throw new ScreenLoadError([{ file, pointer: '/screens', reason: 'must be a list of screens' }]);
  const names = new Set<string>();
  const paths = new Set<string>();
  value.screens.forEach((s: unknown, i) => {
    const at = `/screens/${i}`;
    if (!isObj(s)) { bad(at, 'must be an object'); return; }
    const who = typeof s.name === 'string' ? ` (screen "${s.name}")` : '';
    const say = (pointer: string, reason: string) => bad(pointer, reason + who);
    for (const k of unknownKeys(s, ['name', 'title', 'routes', 'menu', 'needs'])) say(`${at}/${k}`, `unknown property "${k}"`);
    if (typeof s.name !== 'string' || !NAME.test(s.name)) say(`${at}/name`, 'must be a lower-case name');
    else if (names.has(s.name)) say(`${at}/name`, `"${s.name}" is declared twice`);
    else names.add(s.name);
    if (!isText(s.title)) say(`${at}/title`, 'must give {th, en}');
    if (!Array.isArray(s.routes) || !s.routes.length) say(`${at}/routes`, 'must list at least one route');
    else s.routes.forEach((r: unknown, j) => {
      const rat = `${at}/routes/${j}`;
      if (!isObj(r)) { say(rat, 'must be an object'); return; }
      for (const k of unknownKeys(r, ['path', 'kind', 'entity', 'auth', 'via', 'mark', 'screen'])) say(`${rat}/${k}`, `unknown property "${k}"`);
      if (typeof r.path !== 'string' || !r.path.startsWith('/')) say(`${rat}/path`, 'must start with "/"');
      else if (paths.has(r.path)) say(`${rat}/path`, `"${r.path}" is declared twice`);
      else paths.add(r.path);
      if (!SCREEN_ROUTE_KINDS.includes(r.kind as never)) say(`${rat}/kind`, `must be one of ${SCREEN_ROUTE_KINDS.join(', ')}`);
      if (r.entity !== undefined && (typeof r.entity !== 'string' || (ctx && !ctx.entity(r.entity)))) say(`${rat}/entity`, `unknown entity "${String(r.entity)}"`);
    });
    if (s.menu === undefined) {
      if (s.needs !== undefined) say(`${at}/needs`, 'is for a screen in the menu (menu)');
      return;
    }
    const m = s.menu;
    if (!isObj(m)) { say(`${at}/menu`, 'must be {group, key, icon}'); return; }
    for (const k of unknownKeys(m, ['group', 'key', 'icon', 'order', 'label', 'path', 'groupIcon'])) say(`${at}/menu/${k}`, `unknown property "${k}"`);
    if (typeof m.group !== 'string' || !m.group) say(`${at}/menu/group`, 'must name a menu group');
    else if (ctx && !ctx.group(m.group)) say(`${at}/menu/group`, `unknown menu group "${m.group}" (ui-strings menu.<group>)`);
    if (typeof m.key !== 'string' || !m.key) say(`${at}/menu/key`, 'must give the menu key');
    if (typeof m.icon !== 'string' || !m.icon.startsWith('pi ')) say(`${at}/menu/icon`, 'must be a PrimeIcons class ("pi pi-…")');
    if (m.order !== undefined && typeof m.order !== 'number') say(`${at}/menu/order`, 'must be a number');
    if (m.label !== undefined && !isText(m.label)) say(`${at}/menu/label`, 'must give {th, en}');
    if (m.path !== undefined && (typeof m.path !== 'string' || !m.path.startsWith('/'))) say(`${at}/menu/path`, 'must start with "/"');
    if (s.needs === undefined) { say(`${at}/needs`, 'a screen in the menu must say what it needs: {entity}, {right, flag}, {administrator: true} or {portal: true}'); return; }
    const why = needsProblem(s.needs, ctx);
    if (why) say(`${at}/needs`, why);
  });
  if (problems.length) throw new ScreenLoadError(problems);
  return value.screens as ScreenDecl[];
}

/** The entity the customer portal lists: the one its bills screens (kind customerBills) name. */
export function portalEntity(screens: readonly ScreenDecl[]): string | undefined {
  return screens.flatMap((s) => s.routes).find((r) => r.kind === 'customerBills')?.entity;
}

/** The entity a declared screen needs (`needs.entity`): the collection summary's bills. */
export function screenEntity(screens: readonly ScreenDecl[], name: string): string | undefined {
  const needs = screens.find((s) => s.name === name)?.needs;
  return needs && 'entity' in needs ? needs.entity : undefined;
}

export type { ScreenDecl, ScreenNeeds };
