/**
 * Issue 12 §6: a UI-kit component or icon that the app never uses costs
 * nothing. The pruner keeps what the built code names (also classes completed
 * at run time) and the icons schema files name, and drops the rest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneCss, schemaIconsChanged } from '../../scripts/css-pruner.mjs';

const CSS = [
  ':root{--primary-color:#3b82f6}',
  'body{margin:0}',
  '.p-button{color:red}',
  '.p-button.p-button-secondary{color:grey}',
  '.p-toast-top-right{top:20px}',
  '.p-galleria{display:flex}',
  '.p-galleria-thumbnail{width:10px}',
  '.pi-cog:before{content:"a"}',
  '.pi-truck:before{content:"b"}',
  '.pi-times:before{content:"c"}',
  '.pi-briefcase:before{content:"d"}',
  '.bo-page{padding:0}',
  '.bo-unused{padding:1px}',
].join('\n');

const JS = 'const a="p-button",b=`p-button-${s}`,c="p-toast-".concat(pos),d="pi pi-times",e="bo-page";';

describe('css pruner', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function project(schemaIcon: string) {
    root = mkdtempSync(join(tmpdir(), 'css-prune-'));
    const dist = join(root, 'web', 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    mkdirSync(join(root, 'schemas'));
    mkdirSync(join(root, 'server', 'menu'), { recursive: true });
    writeFileSync(join(root, 'server', 'menu', 'portal-menu.ts'), "export const icon = 'pi pi-briefcase';");
    writeFileSync(join(root, 'schemas', 'thing.json'), JSON.stringify({ name: 'thing', icon: `pi ${schemaIcon}` }));
    writeFileSync(join(dist, 'index.html'), '<html><body><div id="root"></div></body></html>');
    writeFileSync(join(dist, 'assets', 'index.js'), JS);
    writeFileSync(join(dist, 'assets', 'index.css'), CSS);
    return dist;
  }

  it('keeps what the code, the schema files and the menus of the server name, completed prefixes included, and drops the rest', async () => {
    const dist = project('pi-truck');
    const r = await pruneCss(root, dist);
    const out = readFileSync(join(dist, 'assets', 'index.css'), 'utf8');
    for (const kept of ['--primary-color', 'body{', '.p-button{', '.p-button-secondary', '.p-toast-top-right', '.pi-times', '.pi-truck', '.pi-briefcase', '.bo-page']) expect(out).toContain(kept);
    for (const dropped of ['.p-galleria', '.pi-cog', '.bo-unused']) expect(out).not.toContain(dropped);
    expect(r.after).toBeLessThan(r.before);
  });

  it('a schema naming a new icon makes the build stale, so its icon is not lost', async () => {
    const dist = project('pi-truck');
    await pruneCss(root, dist);
    expect(schemaIconsChanged(root, dist)).toBe(false);
    writeFileSync(join(root, 'schemas', 'other.json'), JSON.stringify({ name: 'other', icon: 'pi pi-cog' }));
    expect(schemaIconsChanged(root, dist)).toBe(true);
  });
});
