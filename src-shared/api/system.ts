// Health check and the API description.
import { z } from 'zod';
import { defineOperation } from './operation';
import { message, response } from './wire';

export const systemOperations = {
  Ping: defineOperation({
    name: 'Ping',
    method: 'GET',
    path: '/api/v1/ping',
    input: 'path',
    tag: 'System',
    public: true,
    summary: 'Health check',
    request: message({}),
    response: response({ response: z.string() }),
  }),
  GetOpenApiDocument: defineOperation({
    name: 'GetOpenApiDocument',
    method: 'GET',
    path: '/api/v1/openapi.json',
    input: 'path',
    tag: 'System',
    public: true,
    extension: true,
    summary: 'The OpenAPI 3.1 document of this API, derived from the operation table',
    request: message({}),
    response: z.record(z.string(), z.unknown()),
  }),
} as const;
