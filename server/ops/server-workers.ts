import cluster, { type Worker } from 'node:cluster';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The primary process of SERVER_WORKERS > 1. It loads no application code: it
 * starts the workers, accepts connections on their shared port and hands them
 * round-robin (node:cluster's default outside Windows), forwards SIGTERM and
 * SIGINT, and replaces a worker that dies outside a shutdown (after 1 s, doubling to 30 s while it keeps dying).
 *
 * The first worker starts alone and the rest only once it listens: it syncs
 * the schema, seeds and writes the JWT secret file, so the others find all of
 * that done. Only the first runs the daily backup (the others get
 * BACKUP_DAILY_AT=off), so one backup is made a day, not one per worker.
 *
 * Accepting in a process that does nothing else matters on a busy machine:
 * a saturated server process accepts one new connection per event-loop turn
 * (docs/performance.md, "Load"), while the primary takes them off the
 * kernel's queue at once.
 */
export async function runPrimary(count: number, log: Logger): Promise<void> {
  let stopping = false;
  // until every worker listens, a worker that exits is a failed start (main exits 1), not one to replace
  let started = false;
  const roles = new Map<Worker, number>();
  const start = (index: number): Worker => {
    const w = cluster.fork({ SERVER_WORKER_INDEX: String(index), ...(index > 1 ? { BACKUP_DAILY_AT: 'off' } : {}) });
    roles.set(w, index);
    return w;
  };
  const listening = (w: Worker) => new Promise<void>((ok, fail) => {
    w.once('listening', () => ok());
    w.once('exit', (code) => fail(new Error(`server worker ${roles.get(w)} exited with ${code} before it listened`)));
  });

  // a worker dying again and again (a bug hit at every start, a dependency it cannot start without) is
  // started again after 1 s, doubling to 30 s, not in a tight loop; back to 1 s once one lived a minute
  const born = new Map<number, number>();
  const delays = new Map<number, number>();
  cluster.on('fork', (w) => { const i = roles.get(w); if (i !== undefined) born.set(i, Date.now()); });
  cluster.on('exit', (w, code, signal) => {
    const index = roles.get(w);
    roles.delete(w);
    if (stopping || !started || index === undefined) return;
    const lived = Date.now() - (born.get(index) ?? 0);
    const delay = lived >= 60_000 ? 1000 : Math.min((delays.get(index) ?? 500) * 2, 30_000);
    delays.set(index, delay);
    log.error({ worker: index, workerPid: w.process.pid, code, signal, delayMs: delay }, 'a server worker died; starting another');
    setTimeout(() => { if (!stopping) start(index); }, delay);
  });

  await listening(start(1));
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => listening(start(i + 2))));
  started = true;
  log.info({ workers: count }, `${count} server workers listening`);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down the server workers');
    // each worker stops gracefully (server/ops/shutdown.ts); the primary exits with the worst of their codes
    let worst = 0;
    const left = [...roles.keys()];
    if (!left.length) process.exit(0);
    let alive = left.length;
    for (const w of left) {
      w.once('exit', (code) => {
        worst = Math.max(worst, code ?? 1);
        if (--alive === 0) process.exit(worst);
      });
      w.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
