/**
 * The server's time for each call a cold screen makes at start-up (the boot entry's calls), one after another and
 * all at once as the browser sends them, against the production build with the demo data: which answer the
 * first row waits for. Usage: npx tsx tests/bench/web-api-times.ts [rounds]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, startServer } from './web-support.ts';

const rounds = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'bo-web-api-'));
const server = await startServer(dir);
try {
  const signin = await fetch(`${server.url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
  const { data } = (await signin.json()) as { data: { id_token: string; user: { role_id: number; id: number } } };
  const headers = { authorization: `Bearer ${data.id_token}`, 'accept-encoding': 'br, gzip', accept: 'application/json' };
  const calls: [string, string, unknown?][] = [
    ['POST', '/api/role/id', { role_id: data.user.role_id }],
    ['POST', '/api/user_type/role', { role_id: data.user.role_id }],
    ['GET', '/api/settingsite/1'],
    ['GET', '/api/language/content/website_main'],
    ['GET', '/api/menu'],
    ['GET', `/public/alert/user/${data.user.id}/number/notread`],
    ['GET', '/api/report'],
    ['GET', '/api/meta/entities'],
    ['GET', '/api/meta/entities/product'],
    ['GET', '/api/product?page=1&limit=50&meta=total_count'],
  ];
  const one = async ([method, path, body]: [string, string, unknown?]) => {
    const t0 = performance.now();
    const res = await fetch(`${server.url}${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { path, ms: performance.now() - t0, bytes, status: res.status };
  };
  const serial: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) for (const c of calls) { const x = await one(c); (serial[x.path] ??= []).push(x.ms); if (r === 0) console.log(`${x.status} ${(x.bytes / 1024).toFixed(1).padStart(6)} KB decoded  ${x.path}`); }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log('\none after another (median ms):');
  for (const [p, xs] of Object.entries(serial)) console.log(`${med(xs).toFixed(1).padStart(7)}  ${p}`);
  const together: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) for (const x of await Promise.all(calls.map(one))) (together[x.path] ??= []).push(x.ms);
  console.log('\nall at once (median ms to each answer):');
  for (const [p, xs] of Object.entries(together)) console.log(`${med(xs).toFixed(1).padStart(7)}  ${p}`);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
