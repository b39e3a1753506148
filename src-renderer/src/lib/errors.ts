// How API failures are shown: always with the server's message, never
// swallowed. Turns whatever a client call threw into something a view can print.
import { linkCheckFailureOf, type LinkCheckFailureReason } from '../../../src-shared/api/sync';
import { TransportError } from '../../../src-shared/httpRequest';
import { ApiError, Code, type FieldViolation } from '../../../src-shared/errors';

/** What the user was doing when it failed: "archiving" + "'Chamber pressure dip'" (or "3 annotations"). */
export interface Doing {
  /** A gerund phrase: `archiving`, `changing the state of`, `assigning`. */
  readonly verb: string;
  /** What it was done to, as the user knows it: `'Chamber pressure dip'`, `3 annotations`. */
  readonly subject: string;
}

export interface ErrorInfo {
  /** gRPC code name (`INVALID_ARGUMENT`), or `TRANSPORT` when no response arrived, `CLIENT` for a local bug. */
  readonly code: string;
  /** The message to show: the server's own message for API errors. */
  readonly message: string;
  readonly fieldViolations: readonly FieldViolation[];
  /** Which step of a link check failed (LinkCheckFailure), when the error is a link check's refusal. */
  readonly linkCheck?: LinkCheckFailureReason;
  /** The action that failed, for the sentence shown (errorSentences.ts). */
  readonly doing?: Doing;
}

/** toErrorInfo of an action's failure, remembering what the action was. */
export function failedWhile(error: unknown, verb: string, subject: string): ErrorInfo {
  return { ...toErrorInfo(error), doing: { verb, subject } };
}

const CODE_NAMES = Object.fromEntries(Object.entries(Code).map(([name, n]) => [n, name])) as Record<number, string>;

export function codeName(code: number): string {
  return CODE_NAMES[code] ?? `CODE_${code}`;
}

export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof ApiError) {
    const violations = error.details.flatMap((d) =>
      d['@type'] === 'type.googleapis.com/google.rpc.BadRequest' && Array.isArray((d as { fieldViolations?: unknown }).fieldViolations)
        ? ((d as { fieldViolations: FieldViolation[] }).fieldViolations ?? [])
        : [],
    );
    const linkCheck = linkCheckFailureOf(error.details);
    return {
      code: codeName(error.code),
      message: error.message || codeName(error.code),
      fieldViolations: violations,
      ...(linkCheck ? { linkCheck } : {}),
    };
  }
  if (error instanceof TransportError) {
    return { code: 'TRANSPORT', message: `Could not reach the Outpost engine: ${error.message}`, fieldViolations: [] };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'CLIENT', message: message || 'Unexpected error', fieldViolations: [] };
}

/** Errors a filter box shows inline (the user's expression is at fault, or the server cannot run it). */
export function isFilterError(info: ErrorInfo): boolean {
  return info.code === 'INVALID_ARGUMENT' || info.code === 'UNIMPLEMENTED';
}

/** The operation exists in the contract but this engine does not implement it (yet). */
export function isUnimplemented(info: ErrorInfo | undefined): boolean {
  return info?.code === 'UNIMPLEMENTED';
}

export function isUnauthenticated(info: ErrorInfo | undefined): boolean {
  return info?.code === 'UNAUTHENTICATED';
}
