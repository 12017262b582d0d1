import { writeSync } from 'node:fs';

/** The most bytes a write to a pipe is guaranteed to make whole (POSIX PIPE_BUF on Linux). */
export const PIPE_BUF = 4096;

type WriteSync = (fd: number, data: Uint8Array) => number;

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Where the server's log lines go (stdout by default): the lines of one event-loop turn are
 * written together, synchronously, when the turn's callbacks have run.
 *
 * pino's default destination writes each line asynchronously through libuv's thread pool: a
 * hand-off to a worker thread and a wake-up of the loop for every write. Side by side, a get
 * cost 180 µs of CPU with it and 163 µs with this (docs/performance.md, 2026-11-26). Written at
 * the end of the turn, a line still reaches the log at once when the server is idle; under load,
 * one write carries every request line of the turn.
 *
 * Each write holds whole lines and at most PIPE_BUF bytes (a longer line goes alone), so the lines
 * of several processes writing to one pipe (SERVER_WORKERS) never cut into each other.
 * What is waiting is written when the process exits, after an uncaught error too (createLogger
 * registers that); a kill, or the runtime itself failing (out of memory), can leave the last
 * turn's lines unwritten.
 */
export class LogDestination {
  private lines: string[] = [];
  private scheduled = false;
  private readonly flushTurn = () => {
    this.scheduled = false;
    this.flushSync();
  };

  constructor(private readonly fd = 1, private readonly write_: WriteSync = writeSync) {}

  /** pino's call: one line, ending in "\n". */
  write(line: string): void {
    this.lines.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushTurn);
    }
  }

  /** Writes every waiting line now (pino's `logger.flush` and the process's exit). */
  flushSync(): void {
    const lines = this.lines;
    if (!lines.length) return;
    this.lines = [];
    let chunk = '';
    let bytes = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line);
      if (bytes && bytes + size > PIPE_BUF) {
        this.writeAll(chunk);
        chunk = '';
        bytes = 0;
      }
      chunk += line;
      bytes += size;
    }
    this.writeAll(chunk);
  }

  flush(cb?: (err?: Error) => void): void {
    this.flushSync();
    cb?.();
  }

  private writeAll(text: string): void {
    let rest = Buffer.from(text);
    while (rest.length) {
      try {
        rest = rest.subarray(this.write_(this.fd, rest));
      } catch (err) {
        // a full non-blocking pipe: its reader is behind, so wait a millisecond for it and try again;
        // a closed one (EPIPE, the reader gone): the log has nowhere to go, and these lines are dropped
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 1); continue; }
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
        throw err;
      }
    }
  }
}
