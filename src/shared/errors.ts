/**
 * The one error class of the service. `code` is stable (clients may branch on it), `message` is
 * safe to show, `extra` adds members to the problem+json body, `headers` adds response headers.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(options: {
    code: string;
    status: number;
    message: string;
    extra?: Record<string, unknown>;
    headers?: Record<string, string>;
    cause?: unknown;
  }) {
    // A 4xx is an expected answer, never logged with a stack; capturing one (async frames and all)
    // was the single largest cost of the 401 and 402 paths under load.
    const stackTraceLimit = Error.stackTraceLimit;
    if (options.status < 500) Error.stackTraceLimit = 0;
    super(options.message, { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.code = options.code;
    this.status = options.status;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

export const validationError = (detail: string, errors: { path: string; message: string; position?: number }[], code = 'request.invalid') =>
  new AppError({ code, status: 422, message: detail, extra: { errors } });
