/**
 * Every error code the API can answer with, created in one place.
 * docs/api.md lists the same codes; tests/api/error-catalogue.test.ts
 * checks that each code is documented and produced by at least one test.
 */
export const ERROR_CATALOGUE = {
  BAD_REQUEST: { status: 400, message: 'The request could not be read' },
  VALIDATION_FAILED: { status: 400, message: 'Some fields are not valid' },
  UNKNOWN_FIELD: { status: 400, message: 'The request names a field that does not exist' },
  READ_ONLY_FIELD: { status: 400, message: 'The request tries to write a field that cannot be written' },
  INVALID_FILTER: { status: 400, message: 'The filter is not valid' },
  INVALID_QUERY: { status: 400, message: 'The query string is not valid' },
  UNAUTHORIZED: { status: 401, message: 'Sign in to continue' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this' },
  FIELD_FORBIDDEN: { status: 403, message: 'You may not read or write that field' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This action is not available here' },
  CONFLICT: { status: 409, message: 'The value is already used by another record' },
  IN_USE: { status: 409, message: 'The record is still used by other records' },
  INVALID_TRANSITION: { status: 409, message: 'This action cannot be taken in the record\'s current state' },
  OVER_PROCESSED: { status: 409, message: 'More than what is left of the source document' },
  HAS_DEPENDENTS: { status: 409, message: 'Documents made from this one are still live; cancel them first' },
  INSUFFICIENT_STOCK: { status: 409, message: 'Not enough stock on hand' },
  FEATURE_DISABLED: { status: 409, message: 'This feature is switched off in the site settings' },
  SCAN_OVER: { status: 409, message: 'The scan is more than the document asks for; it was recorded as an over-scan' },
  SCAN_REFUSED: { status: 409, message: 'The scanned barcode cannot be used on this document' },
  DOCUMENT_LOCKED: { status: 409, message: 'The record is posted and can no longer be changed; cancel it and amend' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts; wait and try again' },
  BACKUP_INVALID: { status: 400, message: 'The backup file cannot be used' },
  BACKUP_TOO_NEW: { status: 409, message: 'The backup comes from a newer version of the product' },
  WRITES_PAUSED: { status: 503, message: 'Saving is paused while the data is restored; try again shortly' },
  DATABASE_BUSY: { status: 503, message: 'The database is busy with another save; try again in a moment' },
  MAIL_NOT_CONFIGURED: { status: 503, message: 'Email is not set up on this server' },
  DATABASE_UNAVAILABLE: { status: 503, message: 'The database cannot be reached; nothing was saved, try again in a moment' },
  IMPORT_PROGRESS_UNAVAILABLE: { status: 503, message: 'The progress of this import cannot be read right now; try again in a moment' },
  FILE_STORAGE_UNAVAILABLE: { status: 503, message: 'The file storage cannot be reached; nothing was saved, try again in a moment' },
  STORAGE_FULL: { status: 507, message: 'The server\'s disk is full; nothing was saved' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on the server; the change was not saved' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface FieldError {
  field: string;
  code: string;
  message: string;
  /** Values the message template uses (limit, allowed, type…): see error-texts.ts. */
  params?: Record<string, string | number | { th: string; en: string }>;
}

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: unknown; params?: Record<string, unknown> };
}
