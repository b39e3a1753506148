// An ApiError as a gRPC status: the contract's code as the status code, its message, and its google.rpc details
// (BadRequest naming the field) as the details a client finds in `grpc-status-details-bin` (Connect: the error body).
import { fromJson, type JsonObject } from '@bufbuild/protobuf';
import { type Code, ConnectError } from '@connectrpc/connect';
import { ApiError, type ErrorDetail } from '../../src-shared/errors';
import { storageError } from '../db/storageErrors';
import { registry } from './descriptors';

const TYPE_URL_PREFIX = 'type.googleapis.com/';

function outgoingDetail(detail: ErrorDetail) {
  const { '@type': typeUrl, ...fields } = detail;
  const desc = typeUrl.startsWith(TYPE_URL_PREFIX) ? registry.getMessage(typeUrl.slice(TYPE_URL_PREFIX.length)) : undefined;
  // A detail whose type the vendored protos lack stays out of the binary status; the message still says it.
  if (!desc) return [];
  return [{ desc, value: fromJson(desc, fields as JsonObject, { registry, ignoreUnknownFields: true }) }];
}

/** The status a failed call ends with. Unexpected errors are logged here and leave as a bare INTERNAL. */
export function toConnectError(error: unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  let apiError = error instanceof ApiError ? error : storageError(error);
  if (!apiError) {
    console.error('outpost: internal error:', error);
    apiError = ApiError.internal();
  }
  // The contract's codes are the gRPC codes (src-shared/errors.ts), number for number.
  return new ConnectError(apiError.message, apiError.code as Code, undefined, apiError.details.flatMap(outgoingDetail));
}
