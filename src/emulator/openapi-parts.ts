// Building blocks of the OpenAPI document: JSON Schemas from the valibot schemas (`@valibot/to-json-schema`), with
// the rules JSON Schema cannot derive from them, and the shared parameters and responses of the operations.
import type * as v from 'valibot';
import { toJsonSchema, type OverrideActionContext } from '@valibot/to-json-schema';
import { CARTOON_ASPECT_RATIO, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../core/index';
import { ControlEventSchema, CreateSessionRequestSchema, MultipartPayloadSchema } from '../core/validation';

export type Json = Record<string, unknown>;

/**
 * Actions JSON Schema cannot state: a URL's allowed schemes become a `pattern`; the other checks (cross-field rules,
 * base64) are added by hand below, so they leave the schema as it is.
 */
const overrideAction = ({ valibotAction, jsonSchema }: OverrideActionContext) => {
  const protocols = (valibotAction as { protocols?: readonly string[] }).protocols;
  if (protocols) return { ...jsonSchema, pattern: `^(?:${protocols.join('|')})://[^/?#\\s]+` };
  if (['check', 'raw_check', 'partial_check'].includes(valibotAction.type)) return jsonSchema;
  return undefined;
};

/** JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a valibot schema, as requests (`input`) or responses (`output`). */
export function jsonSchema(schema: v.GenericSchema, io: 'input' | 'output'): Json {
  // `trim` is a transformation, so 'input' mode would stop before the length rule that follows it; trimming is no
  // JSON Schema rule, so it is skipped.
  const out = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: io, ignoreActions: ['trim'], overrideAction }) as Json;
  delete out.$schema;
  return out;
}

export const BASE64 = '^(?:data:[^,]*;base64,)?(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$';
export const requiredFor = (transport: string, key: string, props: Json): Json => ({
  if: { properties: { transport_type: { const: transport } }, required: ['transport_type'] },
  then: { required: [key], properties: { [key]: props } },
});

/**
 * Cross-field rules of session creation (`sessionCreateProblems`) as JSON Schema: the avatar source
 * (`sources`), the properties object each transport needs, and the cartoon model's 2x3 aspect ratio.
 */
export function withSessionRules(s: Json, sources: Json): Json {
  const p = s.properties as Record<string, Json>;
  const [rtcA, rtcB] = p.properties!.anyOf as Json[] as [Json, Json];
  return {
    ...s,
    allOf: [
      sources,
      requiredFor('rtc-a', 'properties', rtcA),
      requiredFor('rtc-b', 'properties', rtcB),
      requiredFor('websocket-rtc-a', 'rtc_a_properties', rtcA),
      requiredFor('websocket-rtc-b', 'rtc_b_properties', rtcB),
      {
        if: { properties: { model: { const: 'cartoon' } }, required: ['model'] },
        then: { properties: { aspect_ratio: { const: CARTOON_ASPECT_RATIO } } },
        else: { not: { required: ['aspect_ratio'] } },
      },
    ],
  };
}
/** JSON body: exactly one of agent_id / agent_image_url. */
export const sessionRequest = () =>
  withSessionRules(jsonSchema(CreateSessionRequestSchema, 'input'), {
    oneOf: [{ required: ['agent_id'] }, { required: ['agent_image_url'] }],
  });
/** Multipart payload: the image part is the avatar source, so neither agent_id nor agent_image_url. */
export const multipartPayload = () =>
  withSessionRules(jsonSchema(MultipartPayloadSchema, 'input'), {
    not: { anyOf: [{ required: ['agent_id'] }, { required: ['agent_image_url'] }] },
  });

/** Control body: update-image needs exactly one of image_url / image_base64 (base64 or a data URL). */
export function controlRequest(): Json {
  const s = jsonSchema(ControlEventSchema, 'input');
  // The events, one per `event` value (a valibot variant becomes `oneOf`).
  for (const variant of s.oneOf as Json[]) {
    const props = variant.properties as Record<string, Json>;
    if (props.event?.const !== 'update-image') continue;
    props.image_base64 = { ...props.image_base64, pattern: BASE64 };
    variant.oneOf = [{ required: ['image_url'] }, { required: ['image_base64'] }];
  }
  return s;
}

export const json = (schema: Json) => ({ 'application/json': { schema } });
export const err = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/ErrorBody' }) });
export const ok = (description: string, schema: Json) => ({ description, content: json(schema) });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const body = (name: string) => ({ required: true, content: json(ref(name)) });
export const E = {
  400: err('Invalid arguments or missing required fields'),
  401: err('Invalid API key'),
  402: err('The agent owner has insufficient funds'),
  403: err('The agent or session belongs to another account'),
  404: err('Agent or session not found'),
  413: err('Payload too large'),
  500: err('Unexpected error'),
};
export const pageParams = [
  {
    name: 'page',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, default: 1 },
    description: '1-indexed page; (page-1)*limit may be at most 1000',
  },
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
  },
];
/** Links from a created session / room to the operations that take its id (stateful testing, tooling). */
export const sessionLinks = (ops: string[]) =>
  Object.fromEntries(ops.map((op) => [op, { operationId: op, parameters: { session_id: '$response.body#/session_id' } }]));
export const sessionId = { name: 'session_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };

/**
 * The OpenAPI 3.1 document of the interface, generated from the core zod schemas and served at
 * `/openapi.json`. `/__emulator` test routes are not part of it.
 * @param baseUrl the emulator's `http://host:port`, used as the server URL.
 */
