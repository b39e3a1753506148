// The API's error model: google.rpc.Status bodies with gRPC codes, and the
// grpc-gateway v2 code -> HTTP status mapping (reference §1.5). Every layer
// throws ApiError; only the HTTP/IPC adapters turn it into a wire body.

export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type CodeName = keyof typeof Code;
export type CodeNumber = (typeof Code)[CodeName];

const HTTP_STATUS: Record<number, number> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

export function httpStatusFromCode(code: number): number {
  return HTTP_STATUS[code] ?? 500;
}

/** Reverse mapping used by clients that only see an HTTP status (no JSON body). */
export function codeFromHttpStatus(status: number): number {
  switch (status) {
    case 400:
      return Code.INVALID_ARGUMENT;
    case 401:
      return Code.UNAUTHENTICATED;
    case 403:
      return Code.PERMISSION_DENIED;
    case 404:
      return Code.NOT_FOUND;
    case 409:
      return Code.ALREADY_EXISTS;
    case 429:
      return Code.RESOURCE_EXHAUSTED;
    case 499:
      return Code.CANCELLED;
    case 501:
      return Code.UNIMPLEMENTED;
    case 503:
      return Code.UNAVAILABLE;
    case 504:
      return Code.DEADLINE_EXCEEDED;
    default:
      return status >= 500 ? Code.INTERNAL : Code.UNKNOWN;
  }
}

export interface FieldViolation {
  field: string;
  description: string;
}

export type ErrorDetail =
  | { '@type': 'type.googleapis.com/google.rpc.BadRequest'; fieldViolations: FieldViolation[] }
  | {
      '@type': 'type.googleapis.com/google.rpc.ResourceInfo';
      resourceType: string;
      resourceName: string;
      owner: string;
      description: string;
    }
  | { '@type': string; [k: string]: unknown };

export interface StatusBody {
  code: number;
  message: string;
  details: ErrorDetail[];
}

export class ApiError extends Error {
  readonly code: number;
  readonly details: ErrorDetail[];
  /** A remote's Retry-After header, when the error came from an HTTP response that had one. */
  retryAfter?: string | null;

  constructor(code: number, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
  }

  get httpStatus(): number {
    return httpStatusFromCode(this.code);
  }

  toBody(): StatusBody {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: StatusBody): ApiError {
    return new ApiError(body.code, body.message, body.details ?? []);
  }

  /** INVALID_ARGUMENT with a BadRequest detail naming the offending field(s). */
  static invalid(field: string, description: string): ApiError {
    return new ApiError(Code.INVALID_ARGUMENT, `${field}: ${description}`, [badRequest([{ field, description }])]);
  }

  static invalidMany(violations: FieldViolation[]): ApiError {
    const message = violations.map((v) => (v.field ? `${v.field}: ${v.description}` : v.description)).join('; ');
    return new ApiError(Code.INVALID_ARGUMENT, message, [badRequest(violations)]);
  }

  static notFound(what: string, id: string): ApiError {
    return new ApiError(Code.NOT_FOUND, `${what} not found: ${id}`, [
      { '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceType: what, resourceName: id, owner: '', description: 'not found' },
    ]);
  }

  static alreadyExists(what: string, id: string, message?: string): ApiError {
    return new ApiError(Code.ALREADY_EXISTS, message ?? `${what} already exists: ${id}`, [
      {
        '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
        resourceType: what,
        resourceName: id,
        owner: '',
        description: 'already exists',
      },
    ]);
  }

  static unauthenticated(message = 'missing or invalid API key'): ApiError {
    return new ApiError(Code.UNAUTHENTICATED, message);
  }

  static permissionDenied(message: string): ApiError {
    return new ApiError(Code.PERMISSION_DENIED, message);
  }

  static failedPrecondition(message: string): ApiError {
    return new ApiError(Code.FAILED_PRECONDITION, message);
  }

  static unimplemented(message: string): ApiError {
    return new ApiError(Code.UNIMPLEMENTED, message);
  }

  static internal(message = 'internal error'): ApiError {
    return new ApiError(Code.INTERNAL, message);
  }
}

export function badRequest(fieldViolations: FieldViolation[]): ErrorDetail {
  return { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations };
}

export function isStatusBody(x: unknown): x is StatusBody {
  return typeof x === 'object' && x !== null && typeof (x as StatusBody).code === 'number' && typeof (x as StatusBody).message === 'string';
}
