/**
 * Where a request's CPU goes, by stage, from a .cpuprofile of a server under load (BENCH_CPU_PROF=1 npm run bench,
 * BENCH_ONLY=get or list): every sample between the first and the last that is inside a request is put in the
 * stage of the innermost frame a rule below names (JSON.stringify called by Fastify counts as serialization,
 * a Kysely call under the reader as SQL). Idle time is left out; the garbage collector is its own stage.
 * With the number of requests served (bench-server.ts prints it when profiled) it gives µs per request.
 * Usage: npx tsx tests/bench/request-breakdown.ts FILE.cpuprofile [REQUESTS]
 */
import { readFileSync } from 'node:fs';

interface Frame { functionName: string; url: string }
interface Node { id: number; callFrame: Frame; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

/** Innermost match wins; the order only settles a frame that two rules name. */
const STAGES: [stage: string, test: (f: Frame) => boolean][] = [
  ['HTTP write (socket)', (f) => /^(writev|writeGeneric|writevGeneric|_writeGeneric|_writev|_writeRaw|_send)$/.test(f.functionName) || /node:net|node:internal\/stream_base/.test(f.url)],
  ['logging', (f) => /node_modules\/(pino|abstract-logging|sonic-boom)|server\/ops\/logging/.test(f.url)],
  ['serialization', (f) => /fast-json-stringify|record-serializer|answer-serializers/.test(f.url) || (f.functionName === 'stringify' && !f.url) || /^(serialize|preSerializationHook)/.test(f.functionName)],
  ['row decoding', (f) => /field-codec/.test(f.url)],
  ['SQL (Kysely, driver, SQLite)', (f) => /node_modules\/(kysely|better-sqlite3|pg)\/|server\/db\//.test(f.url)],
  ['permission checks', (f) => /permission-policy|access-policy/.test(f.url)],
  ['authentication (token, principal)', (f) => /authenticator|token-service|request-token|principal\.ts|node_modules\/jose/.test(f.url)],
  ['query parsing (id, fields, filter)', (f) => /list-query|filter-parser|record-id|querystring/.test(f.url)],
  ['headers (security, request id, compression check)', (f) => /security-headers|@fastify\/compress|_storeHeader|setHeader|writeHead/.test(f.url + ' ' + f.functionName)],
  ['hooks (auth hook, ops hooks, audit hook)', (f) => /server\/app\.ts|server\/ops\//.test(f.url)],
  ['route and reader (crud-routes, entity service and reader)', (f) => /server\/crud\//.test(f.url)],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['HTTP and Fastify core (parse, route, write)', () => true],
];
const IN_REQUEST = /node_modules\/fastify\/lib\/(route|handle-request|hooks)\.js/;

const [file, requestsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: request-breakdown.ts FILE.cpuprofile [REQUESTS]');
const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stackOf = (id: number): Frame[] => { const out: Frame[] = []; for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) out.push(nodes.get(at)!.callFrame); return out; };

// the window: first to last sample inside a request (the server's start and its idle end are left out)
const stacks = prof.samples.map(stackOf);
const inRequest = stacks.map((s) => s.some((f) => IN_REQUEST.test(f.url)));
// the sign-in the bench server makes before listening is inside a request too: start after the last module load or app build
const loading = (st: Frame[]) => st.some((f) => f.functionName === 'buildApp' || f.functionName === 'genericServer' || /modules\/(cjs|esm)\//.test(f.url));
let started = 0;
stacks.forEach((st, i) => { if (loading(st)) started = i + 1; });
const first = inRequest.indexOf(true, started);
const last = inRequest.lastIndexOf(true);
const byStage = new Map<string, number>();
let busy = 0;
for (let i = Math.max(first, 0); i <= last; i++) {
  const leaf = stacks[i]![0]!;
  if (leaf.functionName === '(idle)' || leaf.functionName === '(program)') continue;
  const dt = prof.timeDeltas[i] ?? 0;
  busy += dt;
  // innermost: the first frame from the leaf that a rule other than the catch-all names
  let chosen = STAGES.at(-1)![0];
  for (const f of stacks[i]!) { const hit = STAGES.find(([, test]) => test !== STAGES.at(-1)![1] && test(f)); if (hit) { chosen = hit[0]; break; } }
  byStage.set(chosen, (byStage.get(chosen) ?? 0) + dt);
}
const requests = Number(requestsArg ?? 0);
console.log(`busy CPU ${(busy / 1e6).toFixed(2)} s${requests ? ` over ${requests} requests: ${(busy / requests).toFixed(1)} µs each` : ''}`);
for (const [stage, us] of [...byStage].sort((a, b) => b[1] - a[1])) {
  console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${requests ? `${(us / requests).toFixed(1).padStart(6)} µs  ` : ''}${stage}`);
}
if (process.env.BREAKDOWN_LEAVES) {
  // the functions each stage's samples were in, to check the rules
  const leaves = new Map<string, number>();
  for (let i = Math.max(first, 0); i <= last; i++) {
    const s = stacks[i]!;
    if (s[0]!.functionName === '(idle)' || s[0]!.functionName === '(program)') continue;
    let chosen = STAGES.at(-1)![0];
    let via = '';
    for (const f of s) { const hit = STAGES.find(([, test]) => test !== STAGES.at(-1)![1] && test(f)); if (hit) { chosen = hit[0]; via = `${f.functionName} ${f.url.replace(/^.*\//, '')}`; break; } }
    const key = `${chosen} | ${s[0]!.functionName} ${s[0]!.url.replace(/^.*\//, '')} | via ${via}`;
    leaves.set(key, (leaves.get(key) ?? 0) + (prof.timeDeltas[i] ?? 0));
  }
  for (const [k, us] of [...leaves].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BREAKDOWN_LEAVES))) console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${k}`);
}
