/** Changes the site settings (the singleton row) through the API, as an administrator would. */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';

export async function setSiteSettings(app: FastifyInstance, headers: Record<string, string>, values: Record<string, unknown>): Promise<void> {
  const list = await app.inject({ method: 'GET', url: '/api/setting_site?sort=id', headers });
  expect(list.statusCode, list.body).toBe(200);
  const row = (list.json().data as { id: number }[])[0];
  const res = row
    ? await app.inject({ method: 'PATCH', url: `/api/setting_site/${row.id}`, headers, payload: values as never })
    : await app.inject({ method: 'POST', url: '/api/setting_site', headers, payload: values as never });
  expect(res.statusCode, res.body).toBe(row ? 200 : 201);
}
