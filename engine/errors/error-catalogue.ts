/**
 * Every error code the API can answer with, and its HTTP status, created in
 * one place. Its words (Thai and English) live only in error-texts.ts
 * (ERROR_TEXTS), so the two cannot drift apart. docs/api.md lists the same
 * codes; tests/api/error-catalogue.test.ts checks that each code is documented
 * and produced by at least one test.
 */
export const ERROR_CATALOGUE = {
  BAD_REQUEST: { status: 400 },
  VALIDATION_FAILED: { status: 400 },
  UNKNOWN_FIELD: { status: 400 },
  READ_ONLY_FIELD: { status: 400 },
  INVALID_FILTER: { status: 400 },
  INVALID_QUERY: { status: 400 },
  UNAUTHORIZED: { status: 401 },
  FORBIDDEN: { status: 403 },
  FIELD_FORBIDDEN: { status: 403 },
  NOT_FOUND: { status: 404 },
  ETAX_NOT_SUPPORTED: { status: 404 },
  METHOD_NOT_ALLOWED: { status: 405 },
  CONFLICT: { status: 409 },
  IN_USE: { status: 409 },
  INVALID_TRANSITION: { status: 409 },
  OVER_PROCESSED: { status: 409 },
  ETAX_INCOMPLETE: { status: 409 },
  HAS_DEPENDENTS: { status: 409 },
  PERIOD_CLOSED: { status: 409 },
  JOURNAL_UNBALANCED: { status: 400 },
  JOURNAL_LINE_INVALID: { status: 400 },
  JOURNAL_AUTOMATIC: { status: 409 },
  ACCOUNT_ROLE_MISSING: { status: 409 },
  YEAR_CLOSE_REFUSED: { status: 409 },
  ALREADY_TAX_INVOICED: { status: 409 },
  NOTE_WITHOUT_INVOICE: { status: 409 },
  INSUFFICIENT_STOCK: { status: 409 },
  FEATURE_DISABLED: { status: 409 },
  SCAN_OVER: { status: 409 },
  SCAN_REFUSED: { status: 409 },
  DOCUMENT_LOCKED: { status: 409 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { status: 415 },
  RATE_LIMITED: { status: 429 },
  BACKUP_INVALID: { status: 400 },
  BACKUP_TOO_NEW: { status: 409 },
  WRITES_PAUSED: { status: 503 },
  DATABASE_BUSY: { status: 503 },
  MAIL_NOT_CONFIGURED: { status: 503 },
  DATABASE_UNAVAILABLE: { status: 503 },
  DATABASE_TIMEOUT: { status: 503 },
  IMPORT_PROGRESS_UNAVAILABLE: { status: 503 },
  FILE_STORAGE_UNAVAILABLE: { status: 503 },
  STORAGE_FULL: { status: 507 },
  INTERNAL_ERROR: { status: 500 },
} as const satisfies Record<string, { status: number }>;

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
