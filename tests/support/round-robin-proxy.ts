/**
 * A small round-robin HTTP and WebSocket proxy for multi-instance tests: each
 * HTTP request (not each connection) goes to the next backend in turn, as a
 * load balancer without sticky sessions would send it. Every answer carries
 * x-backend (the backend's index), so a test can tell which instance served it.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** The index of the backend the next request or upgrade will go to. */
  readonly next: number;
  /** Backend index of every upgrade (WebSocket) so far, in order. */
  readonly upgrades: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  let counter = 0;
  const upgrades: number[] = [];
  const pick = () => counter++ % backends.length;
  const target = (i: number) => new URL(backends[i]!);

  const server: Server = createServer((req, res) => {
    const i = pick();
    const t = target(i);
    const upstream = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' } }, (up) => {
      res.writeHead(up.statusCode!, { ...up.headers, 'x-backend': String(i) });
      up.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-backend': String(i) });
      res.end(`bad gateway: ${err.message}`);
    });
    req.pipe(upstream);
  });

  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const i = pick();
    upgrades.push(i);
    const t = target(i);
    const up = connect(Number(t.port), t.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let k = 0; k < req.rawHeaders.length; k += 2) lines.push(`${req.rawHeaders[k]}: ${req.rawHeaders[k + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    const end = () => { up.destroy(); socket.destroy(); };
    up.on('error', end);
    socket.on('error', end);
    up.on('close', end);
    socket.on('close', end);
  });

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get next() { return counter % backends.length; },
    upgrades,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
