import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
const [url, pid] = [process.argv[2], Number(process.argv[3])];
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const token = (await (await fetch(url + '/api/auth/signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Load-admin-Pass-1' }) })).json()).data.id_token;
const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br', 'content-type': 'application/json' };
const id = (await (await fetch(url + '/api/working_record', { method: 'POST', headers, body: JSON.stringify({ subject: 'x', status: 'open' }) })).json()).data.id;
let n = 0;
const kinds = { create: { method: 'POST', path: '/api/working_record', setupRequest: (r) => ({ ...r, body: JSON.stringify({ subject: 'บันทึกทดสอบโหลด', status: 'open' }) }) },
  update: { method: 'PATCH', path: `/api/working_record/${id}`, setupRequest: (r) => ({ ...r, body: JSON.stringify({ subject: `แก้ไข ${n++}` }) }) } };
for (const k of (process.argv[4] ?? 'create,update').split(',')) {
  const req = kinds[k];
  await autocannon({ url, connections: 20, duration: 2, headers, requests: [req] });
  const c0 = cpu();
  const r = await autocannon({ url, connections: 20, duration: Number(process.env.DUR ?? 8), headers, requests: [req] });
  const total = r['2xx'] + r.non2xx;
  console.log(k.padEnd(8), Math.round(total / Number(process.env.DUR ?? 8)), 'req/s', ((cpu() - c0) * 1e6 / total).toFixed(0), 'µs CPU/req', r.non2xx, 'non2xx');
}
process.exit(0);
