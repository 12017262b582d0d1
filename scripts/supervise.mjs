// npm start's supervision of the server process (issue 36); plain JavaScript, like the rest of scripts/.
import { spawn } from 'node:child_process';

/** 1 s doubling to 30 s; back to 1 s once a server ran for a minute. */
export const FIRST_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;
export const STEADY_MS = 60_000;

/** One JSON line like the server's own (pino's fields), so log shippers read both alike. */
function logLine(level, msg, extra = {}) {
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, name: 'supervisor', ...extra, msg })}\n`);
}

/**
 * Runs `node [execArgv] main` and starts it again, with backoff, whenever it dies: killed by a signal nobody
 * here sent, or exited with a code other than 0 (the last-resort handler exits 1 after an exception it could
 * not vouch for). Exit 0 is a stop that was asked for: the supervisor exits too. SIGTERM, SIGINT and SIGHUP
 * are passed on to the server, which stops gracefully; the supervisor then exits with its code.
 * The server runs in a process group of its own, so a terminal's Ctrl-C reaches it once (through here),
 * not twice; it stops by itself if this process disappears (its IPC channel closes: server/main.ts).
 */
export function supervise(main, { execArgv = process.execArgv, env = process.env, firstDelayMs = FIRST_DELAY_MS, maxDelayMs = MAX_DELAY_MS, steadyMs = STEADY_MS } = {}) {
  let child = null;
  let stopping = false;
  let restarts = 0;
  let delay = firstDelayMs;
  let timer = null;

  const start = () => {
    timer = null;
    const startedAt = Date.now();
    child = spawn(process.execPath, [...execArgv, main], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...env, BACKOFFICE_SUPERVISED: '1' }, detached: true });
    child.once('exit', (code, signal) => {
      child = null;
      if (stopping || code === 0) process.exit(code ?? (signal ? 1 : 0));
      if (Date.now() - startedAt >= steadyMs) delay = firstDelayMs;
      restarts++;
      logLine(50, `the server stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); starting it again in ${delay} ms`, { code, signal, restarts, delayMs: delay });
      timer = setTimeout(start, delay);
      delay = Math.min(delay * 2, maxDelayMs);
    });
    if (restarts > 0) logLine(30, `server restarted (restart ${restarts})`, { restarts, serverPid: child.pid });
  };

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    if (timer) { clearTimeout(timer); process.exit(0); }
    child?.kill(signal);
  };
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => stop(s));
  start();
}
