import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';

/**
 * A request's logger (`request.log`, `reply.log`), made only when the request logs a line.
 *
 * Fastify gives every request a pino child bound to its request id. pino builds a child's
 * bindings as JSON at once, through the redaction of every path in REDACT_PATHS: about 2 %
 * of a get's CPU (docs/performance.md), for a logger most requests never use. The request
 * line itself goes through its own logger (ops-routes.ts), so a request logs through
 * `request.log` only when something goes wrong. This object answers every logger call by
 * making that child then, with the same bindings and options, so the line is the same.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(private readonly parent: FastifyBaseLogger, private readonly childBindings: Bindings, private readonly childOptions: ChildLoggerOptions) {}

  /** The pino child, made on first use. */
  get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.childBindings, this.childOptions));
  }

  /** Whether the child has been made (for tests and diagnostics). */
  get isMade(): boolean {
    return this.made !== undefined;
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? (this.childOptions.level as LevelWithSilentOrString | undefined) ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.real.level = level;
  }

  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

// on the prototype, not closures per request: most requests never call one
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const) {
  LazyChildLogger.prototype[level] = function (this: LazyChildLogger, ...args: unknown[]) {
    (this.real[level] as (...a: unknown[]) => void)(...args);
  } as LogFn;
}

/** Fastify's `childLoggerFactory`: the request's logger, made when first used. */
export function lazyChildLoggerFactory(this: unknown, logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
