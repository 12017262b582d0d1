import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Stops writes while a restore replaces the data: every request other than
 * GET/HEAD/OPTIONS answers 503 WRITES_PAUSED (Thai and English message) until
 * the gate opens again. One gate per server instance.
 */
export class WriteGate {
  private reason: string | null = null;

  get closed(): boolean {
    return this.reason !== null;
  }

  /** Runs `work` with the gate closed; a second caller while it is closed is refused. */
  async closedWhile<T>(reason: string, work: () => Promise<T>): Promise<T> {
    if (this.reason) throw WriteGate.refusal();
    this.reason = reason;
    try {
      return await work();
    } finally {
      this.reason = null;
    }
  }

  static refusal(): AppError {
    return new AppError('WRITES_PAUSED', 'ระบบกำลังกู้คืนข้อมูล งดบันทึกชั่วคราว กรุณาลองใหม่ในอีกสักครู่ / The data is being restored; saving is paused for a moment, try again shortly', { retry_after_seconds: 30 });
  }

  install(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      if (!this.reason || SAFE.has(request.method)) return;
      reply.header('retry-after', '30');
      throw WriteGate.refusal();
    });
  }
}
