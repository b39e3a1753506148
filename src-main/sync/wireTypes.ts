// The request and response types of the operation table as sync sends and
// receives them, and a remote call typed by them.
import type { z } from 'zod';
import type { RequestOf, ResponseOf } from '../../src-shared/api/operation';
import type { OperationName, Operations } from '../../src-shared/operations';

/** The validated request of operation K (zod output: epoch micros, snake_case mask paths): what the outbox keeps. */
export type StoredRequest<K extends OperationName> = RequestOf<Operations[K]>;

/**
 * The wire (input) form of a request schema, through every nested message: message() wraps each object in a
 * key-normalising preprocess whose own input type is unknown, so zod's input type alone would stop at the first one.
 */
export type WireOf<S> =
  S extends z.ZodPreprocess<infer O extends z.ZodType, unknown>
    ? WireOf<O>
    : S extends z.ZodOptional<infer T extends z.ZodType>
      ? WireOf<T> | undefined
      : S extends z.ZodNullable<infer T extends z.ZodType>
        ? WireOf<T> | null
        : S extends z.ZodArray<infer T extends z.ZodType>
          ? WireOf<T>[]
          : S extends z.ZodObject<infer Shape extends z.ZodRawShape>
            ? WireObject<Shape>
            : z.input<S>;

type OptionalKeys<Shape> = { [K in keyof Shape]: Shape[K] extends z.ZodOptional<z.ZodType> ? K : never }[keyof Shape];
type WireObject<Shape extends z.ZodRawShape> = { [K in Exclude<keyof Shape, OptionalKeys<Shape>>]: WireOf<Shape[K]> } & {
  [K in OptionalKeys<Shape>]?: WireOf<Shape[K]>;
};

/** The wire request of operation K as the remote takes it. */
export type WireRequest<K extends OperationName> = WireOf<Operations[K]['request']>;

/** The wire response of operation K. */
export type WireResponse<K extends OperationName> = ResponseOf<Operations[K]>;

/** One call of the remote: typed by the operation table when the operation is named; the generic core names none. */
export interface RemoteCall {
  <K extends OperationName>(operation: K, request: WireRequest<K>): Promise<WireResponse<K>>;
  (operation: string, request: Record<string, unknown>): Promise<unknown>;
}

/**
 * A remote call typed by the operation table. The remote's answers are JSON read as the operation's response type,
 * not validated again: what a remote sends back is the contract's to define (the fuzzer and the strict stand-in
 * remote check that it does).
 */
export const typedCall = (call: (operation: string, request: Record<string, unknown>) => Promise<unknown>): RemoteCall =>
  call as RemoteCall;
