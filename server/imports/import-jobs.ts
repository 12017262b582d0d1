import type { RedisCommands } from '../auth/sign-in-limiter.ts';
import type { ImportError } from './row-import.ts';

export type ImportMode = 'all_or_nothing' | 'valid_rows';

export interface ImportJob {
  id: string; userId: number | null; mode: ImportMode;
  /** The entity the rows go into (absent in jobs saved before imports were per entity: product). */
  entity?: string;
  state: 'importing' | 'done' | 'failed';
  total: number; valid: number; invalid: number; done: number; imported: number;
  errors: ImportError[]; error_count: number; message: string | null; message_th: string | null; started_at: string; finished_at: string | null;
}

/** A job is kept for an hour after it finishes (or, if its instance died, after its last progress). */
export const KEEP_MS = 60 * 60 * 1000;

/**
 * Where import jobs are kept while they run and for an hour after: the
 * progress screen polls whichever instance the balancer picks, so with several
 * instances (Redis configured) a job lives in Redis; one instance keeps them
 * in its memory. Progress is saved outside the import's transaction, which on
 * SQLite holds the one connection: a table in the same database could not be
 * written until the import ends.
 */
export interface ImportJobStore {
  save(job: ImportJob): Promise<void>;
  get(id: string): Promise<ImportJob | undefined>;
}

export class MemoryImportJobs implements ImportJobStore {
  private readonly jobs = new Map<string, { job: ImportJob; at: number }>();

  async save(job: ImportJob): Promise<void> {
    const now = Date.now();
    this.jobs.set(job.id, { job: structuredClone(job), at: now });
    for (const [id, j] of this.jobs) if (now - j.at > KEEP_MS) this.jobs.delete(id);
  }

  async get(id: string): Promise<ImportJob | undefined> {
    const hit = this.jobs.get(id);
    return hit ? structuredClone(hit.job) : undefined;
  }
}

export class RedisImportJobs implements ImportJobStore {
  constructor(private readonly redis: RedisCommands, private readonly prefix: string) {}

  private key(id: string): string {
    return `${this.prefix}:import:${id}`;
  }

  async save(job: ImportJob): Promise<void> {
    await this.redis.sendCommand(['SET', this.key(job.id), JSON.stringify(job), 'PX', String(KEEP_MS)]);
  }

  async get(id: string): Promise<ImportJob | undefined> {
    const raw = await this.redis.sendCommand(['GET', this.key(id)]);
    return typeof raw === 'string' ? (JSON.parse(raw) as ImportJob) : undefined;
  }
}
