import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
const base = 'http://127.0.0.1:3411';
await page.goto(base + '/signin');
await page.getByLabel('ชื่อผู้ใช้').fill('admin');
await page.getByLabel('รหัสผ่าน').fill('Shot-admin-Pass-1');
await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
await page.waitForSelector('.bo-sidemenu');
const encodings = [];
page.on('response', (r) => { if (r.url().includes('/api/product') || r.url().includes('/api/working_record')) encodings.push(`${r.url().replace(base, '')} ${r.headers()['content-encoding'] ?? 'identity'}`); });
for (const [path, file] of [['/product', 'product'], ['/working_record', 'working_record']]) {
  await page.goto(base + path);
  await page.waitForSelector('[data-testid="list-total"]');
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/shot-${file}.png` });
  // the same list again: its answer goes out as it was compressed before
  await page.reload();
  await page.waitForSelector('[data-testid="list-total"]');
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shot-${file}-again.png` });
}
console.log(encodings.join('\n'));
await browser.close();
