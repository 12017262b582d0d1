import type { FieldError } from '../../../engine/errors/error-catalogue.ts';

export const CANNOT_CONNECT = 'Cannot connect to the server';

/** Every failed call ends up as one of these: HTTP status, server error code and the field problems. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = 'ERROR',
    readonly fields: FieldError[] = [],
    readonly details?: unknown,
    /** The parameters of the code's text (engine/errors/error-texts.ts). */
    readonly params?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
