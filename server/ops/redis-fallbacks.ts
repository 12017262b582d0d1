import { MemorySignInLimiter, type SignInLimits } from '../auth/sign-in-limiter.ts';
import { MemoryImportJobs, type ImportJob, type ImportJobStore } from '../imports/import-jobs.ts';
import { AppError } from '../errors/app-error.ts';

interface Log { warn(obj: object, msg: string): void }

/** One warning a minute per kind at most: an outage would otherwise write one per request. */
function throttled(log: Log, what: string): (err: unknown) => void {
  let at = 0;
  return (err) => {
    if (Date.now() - at < 60_000) return;
    at = Date.now();
    log.warn({ err: { message: (err as Error).message } }, `redis unavailable: ${what}`);
  };
}

/**
 * Sign-in limits in Redis, counted by this instance alone while Redis is down: a Redis outage must not
 * stop people signing in (issue 36), and guessing is still slowed, per instance, meanwhile.
 */
export class FallbackSignInLimiter implements SignInLimits {
  private readonly local = new MemorySignInLimiter();
  private readonly warn: (err: unknown) => void;

  constructor(private readonly shared: SignInLimits, log: Log) {
    this.warn = throttled(log, 'sign-in failures are counted per instance until it is back');
  }

  async retryAfter(ip: string, username: string): Promise<number> {
    const local = await this.local.retryAfter(ip, username);
    try {
      return Math.max(local, await this.shared.retryAfter(ip, username));
    } catch (err) {
      this.warn(err);
      return local;
    }
  }

  async fail(ip: string, username: string): Promise<void> {
    try {
      await this.shared.fail(ip, username);
    } catch (err) {
      this.warn(err);
      await this.local.fail(ip, username);
    }
  }

  async succeed(ip: string, username: string): Promise<void> {
    await this.local.succeed(ip, username);
    await this.shared.succeed(ip, username).catch(this.warn);
  }
}

/**
 * Import jobs in Redis, so any instance can answer a job's progress, and in this instance's memory too:
 * an import keeps running and saving its progress while Redis is down, and the instance running it
 * answers from memory. Another instance asked about it meanwhile answers 503 IMPORT_PROGRESS_UNAVAILABLE,
 * which the progress screen shows while it keeps asking (web/src/pages/stock/ImportPage.tsx), rather than "no such import".
 */
export class FallbackImportJobs implements ImportJobStore {
  private readonly local = new MemoryImportJobs();
  private readonly warn: (err: unknown) => void;

  constructor(private readonly shared: ImportJobStore, log: Log) {
    this.warn = throttled(log, 'import progress is kept by the instance running the import until it is back');
  }

  async save(job: ImportJob): Promise<void> {
    await this.local.save(job);
    await this.shared.save(job).catch(this.warn);
  }

  async get(id: string): Promise<ImportJob | undefined> {
    // the instance running a job always holds its latest state
    const here = await this.local.get(id);
    if (here) return here;
    try {
      return await this.shared.get(id);
    } catch (err) {
      this.warn(err);
      throw new AppError('IMPORT_PROGRESS_UNAVAILABLE');
    }
  }
}
