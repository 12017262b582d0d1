import { readFileSync } from 'node:fs';
import { launchBrowser, signInInBrowser, ADMIN_PASSWORD } from '../e2e-support.ts';
const base = readFileSync('/tmp/e2e-url', 'utf8');
const browser = await launchBrowser();
const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' })).newPage();
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('CONSOLE', m.type(), m.text()); });
await signInInBrowser(page, base, 'admin', ADMIN_PASSWORD);
const steps = (await import(process.argv[2]!)).default as (page: any, base: string) => Promise<void>;
try { await steps(page, base); } catch (e) { console.log('STEP FAILED', e); }
await browser.close();
