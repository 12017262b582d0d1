import { ERROR_CATALOGUE, type ErrorCode } from '../../engine/errors/error-catalogue.ts';
import { ERROR_TEXTS } from '../../engine/errors/error-texts.ts';
import type { TextParams } from '../../engine/errors/error-texts.ts';

/** The only error type handlers throw on purpose; anything else is a bug and answers 500. */
export class AppError extends Error {
  readonly status: number;
  /**
   * `params` fill the code's text in engine/errors/error-texts.ts (entity label,
   * id, reason…), so the client and an Accept-Language answer can say it in Thai.
   */
  constructor(readonly code: ErrorCode, message?: string, readonly details?: unknown, readonly params?: TextParams) {
    super(message ?? ERROR_TEXTS[code].en);
    this.status = ERROR_CATALOGUE[code].status;
  }

  toBody() {
    return {
      success: false as const,
      error: {
        code: this.code, message: this.message,
        ...(this.details !== undefined ? { details: this.details } : {}),
        ...(this.params !== undefined ? { params: this.params } : {}),
      },
    };
  }
}
