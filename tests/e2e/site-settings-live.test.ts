import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * Issue 37 §1 in headless Chromium: three site settings change what an open
 * screen shows, live, without a reload: the theme (only the chosen theme's
 * file loaded), the production menu (manufactured products), and the product
 * images (a thumbnail in the product list, the image field in the form).
 */
describe('site settings that change the screen', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  let token: string;
  let settingsId: number;
  const url = (p: string) => s.url(p);
  const set = async (values: Record<string, unknown>) => {
    const res = await api('PATCH', `/api/setting_site/${settingsId}`, values);
    expect(res.success, JSON.stringify(res)).toBe(true);
  };
  // each theme is a built file of its own (/assets/theme-<hash>.css); the page names the chosen one in link#bo-theme
  const themeFiles = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((n) => /\/assets\/theme-[^/]+\.css$/.test(n)));
  const themeHref = () => page.locator('link#bo-theme').getAttribute('href');
  const markPage = () => page.evaluate(() => { (window as unknown as { __noReload: boolean }).__noReload = true; });
  const notReloaded = () => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

  beforeAll(async () => {
    s = await browserSession({
      context: { viewport: { width: 1366, height: 860 } },
      timeout: 15_000,
      arrange: async (api) => { settingsId = (await api('GET', '/api/setting_site?sort=id')).data[0].id; },
    });
    ({ page, errors, api, token } = s);
  }, 240_000);
  afterAll(() => closeSession(s));

  it('stylesheet: the open screen turns dark, loading only the dark theme\'s file', async () => {
    await page.goto(url('/customer'));
    await page.getByTestId('entity-list').waitFor();
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await bg();
    const lightHref = await themeHref();
    expect(await themeFiles()).toEqual([lightHref]);
    await markPage();
    // the dark file arrives late, as on a busy machine or network
    const slow = /lara-dark-blue/;
    await page.route(slow, async (route) => { await new Promise((r) => setTimeout(r, 500)); await route.continue(); });
    await set({ stylesheet: 'dark' });
    // the root's class and the dark theme's colours come together, once the dark file has arrived: the page read
    // at the first frame with the class is dark already (it was the light theme's ground colour for a moment before)
    const seen = await page.evaluate(() => new Promise<string>((resolve) => {
      const look = () => (document.documentElement.classList.contains('bo-theme-dark') ? resolve(getComputedStyle(document.body).backgroundColor) : requestAnimationFrame(look));
      look();
    }));
    const brightness = (colour: string) => colour.match(/\d+/g)!.slice(0, 3).map(Number).reduce((a, c) => a + c, 0);
    expect(brightness(seen)).toBeLessThan(200);
    expect(brightness(await bg())).toBeLessThan(200);
    await page.unroute(slow);
    const darkHref = await themeHref();
    expect(darkHref).not.toBe(lightHref);
    expect(await notReloaded()).toBe(true);
    await shot(page, 'i37-theme-dark');
    // a new page load asks for the dark theme's file only
    await page.reload();
    await page.getByTestId('entity-list').waitFor();
    expect(await themeFiles()).toEqual([darkHref]);
    await set({ stylesheet: 'default' });
    await expect.poll(bg).toBe(light);
  });

  it('is_enable_manufactured_product: the production menu goes and comes back on the open screen', async () => {
    await page.goto(url('/goods_receipt'));
    const nav = page.locator('nav.bo-sidemenu');
    await nav.getByRole('button', { name: /จัดซื้อและคลังสินค้า/ }).waitFor();
    const production = nav.locator('a[href="/production_report"]');
    await expect.poll(() => production.count()).toBe(1);
    await markPage();
    await set({ is_enable_manufactured_product: false });
    await expect.poll(() => production.count()).toBe(0);
    await shot(page, 'i37-manufactured-off');
    await set({ is_enable_manufactured_product: true });
    await expect.poll(() => production.count()).toBe(1);
    expect(await notReloaded()).toBe(true);
    // receiving from a production report: offered while on, said to be switched off while off (live)
    await page.goto(url('/goods_receipt/production_report'));
    await page.getByTestId('create-from').waitFor();
    await set({ is_enable_manufactured_product: false });
    await page.getByTestId('source-switched-off').waitFor();
    expect(await page.getByTestId('source-switched-off').innerText()).toContain('is_enable_manufactured_product');
    expect(await page.getByTestId('create-from').count()).toBe(0);
    await shot(page, 'i37-receive-from-production-off');
    await set({ is_enable_manufactured_product: true });
    await page.getByTestId('create-from').waitFor();
  });

  it('is_enable_product_image: a thumbnail in the product list and the image field in the form, live', async () => {
    // a product with an image, uploaded as a user would
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c63f8cf50ff1f0005fe02fea7d6a5a20000000049454e44ae426082', 'hex');
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'film.png');
    const up = await (await fetch(url('/api/file/upload/product'), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json() as { data: { id: string }[] };
    const product = (await api('GET', '/api/product?limit=1&sort=code&fields=id,code,name_th')).data[0];
    expect((await api('PATCH', `/api/product/${product.id}`, { image: up.data[0]!.id })).success).toBe(true);
    await set({ is_enable_product_image: false });

    await page.goto(url('/product'));
    const list = page.getByTestId('entity-list');
    await list.waitFor();
    await expect.poll(() => list.locator('thead th').allInnerTexts()).not.toContain('รูปสินค้า');
    expect(await list.getByTestId('thumbnail').count()).toBe(0);
    await markPage();
    await set({ is_enable_product_image: true });
    await expect.poll(() => list.locator('thead th').allInnerTexts()).toContain('รูปสินค้า');
    await expect.poll(() => list.getByTestId('thumbnail').count()).toBeGreaterThan(0);
    expect(await notReloaded()).toBe(true);
    await shot(page, 'i37-product-thumbnails');

    // the product picker of another form shows the thumbnail beside each product
    await page.goto(url('/barcodes/create'));
    await page.locator('#field-product_id').click();
    const choice = page.locator('.bo-link-panel li', { hasText: product.name_th });
    await choice.first().waitFor();
    await expect.poll(() => choice.first().getByTestId('thumbnail').count()).toBe(1);
    await shot(page, 'i37-picker-thumbnail');
    await page.keyboard.press('Escape');

    await page.goto(url(`/product/${product.id}`));
    await page.getByText('รูปสินค้า', { exact: true }).first().waitFor();
    await set({ is_enable_product_image: false });
    await expect.poll(() => page.getByText('รูปสินค้า', { exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
