/**
 * A request's logger is made only when the request logs, and then writes the same line
 * Fastify's own child would: the request id bound, the route's level, secrets redacted.
 */
import { describe, expect, it, vi } from 'vitest';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { createLogger, opsServerOptions } from '../../server/ops/logging.ts';
import { LazyChildLogger } from '../../server/ops/lazy-child-logger.ts';

function sink(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l)); cb(); } });
  return { lines, stream };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('LazyChildLogger', () => {
  it('makes the child on the first line, with its bindings, its level and the parent redaction', async () => {
    const { lines, stream } = sink();
    const parent = createLogger('info', stream);
    const lazy = new LazyChildLogger(parent, { reqId: 'r-1' }, { level: 'warn' });
    expect(lazy.isMade).toBe(false);
    // the level is answered without making the child
    expect(lazy.level).toBe('warn');
    expect(lazy.isMade).toBe(false);
    lazy.info('below the level');
    expect(lazy.isMade).toBe(true);
    lazy.warn({ password: 'Secret-1', body: { token: 'tok-1' } }, 'hello %s', 'there');
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, reqId: 'r-1', msg: 'hello there', password: '[redacted]', body: { token: '[redacted]' } });
    expect(JSON.stringify(lines)).not.toMatch(/Secret-1|tok-1/);
  });

  it('inherits the parent level when the route sets none, and hands out grandchildren', async () => {
    const { lines, stream } = sink();
    const lazy = new LazyChildLogger(createLogger('debug', stream), { reqId: 'r-2' }, {});
    expect(lazy.level).toBe('debug');
    lazy.child({ step: 'import' }).debug('deeper');
    await settle();
    expect(lines[0]).toMatchObject({ level: 20, reqId: 'r-2', step: 'import', msg: 'deeper' });
  });
});

describe('request loggers in the server options', () => {
  it('a request that logs nothing makes no child logger; one that logs gets its request id on the line', async () => {
    const { lines, stream } = sink();
    const parent = createLogger('info', stream);
    const app = Fastify(opsServerOptions(parent));
    app.get('/quiet', async (request) => ({ id: request.id }));
    app.get('/loud', async (request) => {
      request.log.warn({ authorization: 'Bearer abc.def' }, 'something to see');
      return { id: request.id };
    });
    app.get('/probe', { logLevel: 'warn' }, async (request) => {
      request.log.info('not at this route\'s level');
      return { id: request.id };
    });
    await app.ready();
    const children = vi.spyOn(parent, 'child');

    const quiet = await app.inject({ url: '/quiet' });
    expect(quiet.statusCode).toBe(200);
    expect(children).not.toHaveBeenCalled();

    const loud = await app.inject({ url: '/loud' });
    expect(children).toHaveBeenCalledTimes(1);
    const probe = await app.inject({ url: '/probe' });
    await settle();
    const written = lines.filter((l) => l.msg === 'something to see');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ reqId: loud.json().id, level: 40, authorization: '[redacted]' });
    expect(lines.some((l) => l.reqId === probe.json().id)).toBe(false);
    await app.close();
  });
});
