import { ERROR_CATALOGUE, type ErrorCode } from '../../engine/errors/error-catalogue.ts';

/** The only error type handlers throw on purpose; anything else is a bug and answers 500. */
export class AppError extends Error {
  readonly status: number;
  constructor(readonly code: ErrorCode, message?: string, readonly details?: unknown) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.status = ERROR_CATALOGUE[code].status;
  }

  toBody() {
    return { success: false as const, error: { code: this.code, message: this.message, ...(this.details !== undefined ? { details: this.details } : {}) } };
  }
}
