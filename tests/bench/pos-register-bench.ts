/**
 * Issue 33 §8 in the browser: with 100,000 products, how long from the Enter of a keyboard-wedge scan to the new
 * total on the register? `npx tsx tests/bench/pos-register-bench.ts` (headless Chromium, the real server on SQLite
 * with the demo data). The time runs from the Enter keydown to the moment the total's text changes (a
 * MutationObserver in the page): the product lookup by barcode, the promotion arithmetic and the render. A
 * measurement, never a test; part of `npm run bench` (and `npm run bench:pos`).
 */
import { loadavg } from 'node:os';
import { ADMIN_PASSWORD, apiClient, apiSignIn, launchBrowser, signInInBrowser, startServer } from '../e2e/e2e-support.ts';
import { encodeColumns } from '../../server/crud/record-values.ts';

const PRODUCTS = 100_000;
const SCANS = 15;

async function main(): Promise<void> {
  const server = await startServer();
  const k = server.started.db.kysely;
  const product = server.started.registry.get('product')!;
  const now = new Date().toISOString();
  const t0 = performance.now();
  await k.transaction().execute(async (trx) => {
    for (let at = 0; at < PRODUCTS; at += 500) {
      const rows = Array.from({ length: Math.min(500, PRODUCTS - at) }, (_, j) => {
        const n = at + j;
        return {
          ...encodeColumns(product, { code: `BN${n}`, barcode: `99${String(n).padStart(11, '0')}`, name_th: `สินค้าทดสอบ ${n}`, product_class: 'product', unit: 'ชิ้น', price: 10 + (n % 50), vat_type: 'vat7', is_active: true, is_sellable: true, is_purchasable: true, is_track_lot: false, is_track_expiry: false }),
          created_at: now, updated_at: now,
        };
      });
      await trx.insertInto('product').values(rows).execute();
    }
  });
  console.log(`${PRODUCTS} products in ${Math.round(performance.now() - t0)} ms`);

  const api = apiClient(server.baseUrl, await apiSignIn(server.baseUrl, 'admin', ADMIN_PASSWORD));
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' })).newPage();
  try {
    await signInInBrowser(page, server.baseUrl, 'admin', ADMIN_PASSWORD);
    const terminal = (await api('GET', '/api/pos?limit=1&sort=code')).data[0];
    await page.goto(new URL('/pos_register', server.baseUrl).toString());
    await page.getByTestId('pos-terminal').selectOption(String(terminal.id));
    if (await page.getByTestId('pos-open').count()) await page.getByTestId('pos-open').click();
    await page.getByTestId('pos-scan').waitFor();
    const times: number[] = [];
    if (process.env.BENCH_TRACE) page.on('requestfinished', (r) => { const tm = r.timing(); if (r.url().includes('/api/')) console.log(r.method(), r.url().slice(server.baseUrl.length, server.baseUrl.length + 90), (tm.responseEnd - tm.requestStart).toFixed(0), 'ms'); });
    for (let i = 0; i < SCANS; i++) {
      const code = `99${String(PRODUCTS - 1 - i * 997).padStart(11, '0')}`;
      // a script as text: the bundler's helper names would not exist in the page
      await page.evaluate(`(() => {
        const w = window;
        w.bench = { start: 0, end: 0 };
        const input = document.querySelector('[data-testid=pos-scan]');
        input.addEventListener('keydown', function onKey(e) { if (e.key === 'Enter') { w.bench.start = performance.now(); input.removeEventListener('keydown', onKey, true); } }, true);
        const total = document.querySelector('[data-testid=pos-total]');
        const before = total.textContent;
        const obs = new MutationObserver(function () { if (total.textContent !== before && !w.bench.end) { w.bench.end = performance.now(); obs.disconnect(); } });
        obs.observe(total, { childList: true, subtree: true, characterData: true });
      })()`);
      await page.keyboard.type(code, { delay: 2 });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => (window as unknown as { bench: { end: number } }).bench.end > 0, undefined, { timeout: 10_000 });
      times.push(await page.evaluate(() => { const b = (window as unknown as { bench: { start: number; end: number } }).bench; return b.end - b.start; }));
    }
    times.sort((a, b) => a - b);
    console.log(`scan → new total, ${SCANS} scans with ${PRODUCTS} products: median ${times[Math.floor(SCANS / 2)]!.toFixed(1)} ms, p90 ${times[Math.floor(SCANS * 0.9)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1; });
