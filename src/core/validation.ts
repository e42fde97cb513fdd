/**
 * liveai-kit/schemas: the valibot schemas of every resource, request, event and error of the service, and the
 * validators built on them. The proxy and the local service use the same set, and the OpenAPI document of the local
 * service is generated from it. Validate with valibot's own functions, for example
 * `v.safeParse(ClientSessionSchema, value)`; the types (`ClientSession`, …) are exported by `liveai-kit`.
 * In the browser the session engine loads this module lazily when it first needs a schema outside the call path
 * (a control event, a session list), so a page pays for the schemas only once it calls the service.
 *
 * @module liveai-kit/schemas
 */
export * from './schemas';
export { parseAvatarEventMessage, type ParsedMessage } from './events/read';
/** The error the validators throw (its class is exported by `liveai-kit`). */
export type { LiveAiError, LiveAiErrorOptions, ErrorCode, ErrorSource } from './errors';
