import * as z from 'zod/mini';
import { CARTOON_ASPECT_RATIO, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MAX_UPLOAD_BYTES } from '../core/constants';
import {
  ControlEventSchema,
  ControlResponseSchema,
  CreateRoomRequestSchema,
  CreateSessionRequestSchema,
  ErrorBodySchema,
  LeaveMeetingRequestSchema,
  LeaveMeetingResponseSchema,
  MultipartPayloadSchema,
  RoomListSchema,
  RoomSchema,
  SessionListSchema,
  SessionSchema,
  SessionStatusResponseSchema,
} from '../core/schemas';

type Json = Record<string, unknown>;

/** `z.url({protocol})` → JSON Schema `format: uri` plus a `pattern` for the allowed schemes. */
const urlPatterns = ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Json }) => {
  const def = (zodSchema as { _zod?: { def?: { format?: string; protocol?: unknown } } })._zod?.def;
  if (def?.format === 'url' && def.protocol instanceof RegExp) {
    jsonSchema.pattern = `^(?:${def.protocol.source.replace(/^\^|\$$/g, '')})://[^/?#\\s]+`;
  }
};

/** JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a zod schema, as requests (`input`) or responses (`output`). */
export function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline', override: urlPatterns }) as Json;
  delete out.$schema;
  return out;
}

const BASE64 = '^(?:data:[^,]*;base64,)?(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$';
const requiredFor = (transport: string, key: string, props: Json): Json => ({
  if: { properties: { transport_type: { const: transport } }, required: ['transport_type'] },
  then: { required: [key], properties: { [key]: props } },
});

/**
 * Cross-field rules of session creation (`sessionCreateProblems`) as JSON Schema: the avatar source
 * (`sources`), the properties object each transport needs, and the cartoon model's 2x3 aspect ratio.
 */
function withSessionRules(s: Json, sources: Json): Json {
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
const sessionRequest = () =>
  withSessionRules(jsonSchema(CreateSessionRequestSchema, 'input'), {
    oneOf: [{ required: ['agent_id'] }, { required: ['agent_image_url'] }],
  });
/** Multipart payload: the image part is the avatar source, so neither agent_id nor agent_image_url. */
const multipartPayload = () =>
  withSessionRules(jsonSchema(MultipartPayloadSchema, 'input'), {
    not: { anyOf: [{ required: ['agent_id'] }, { required: ['agent_image_url'] }] },
  });

/** Control body: update-image needs exactly one of image_url / image_base64 (base64 or a data URL). */
function controlRequest(): Json {
  const s = jsonSchema(ControlEventSchema, 'input');
  for (const v of s.anyOf as Json[]) {
    const props = v.properties as Record<string, Json>;
    if (props.event?.const !== 'update-image') continue;
    props.image_base64 = { ...props.image_base64, pattern: BASE64 };
    v.oneOf = [{ required: ['image_url'] }, { required: ['image_base64'] }];
  }
  return s;
}

const json = (schema: Json) => ({ 'application/json': { schema } });
const err = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/ErrorBody' }) });
const ok = (description: string, schema: Json) => ({ description, content: json(schema) });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: string) => ({ required: true, content: json(ref(name)) });
const E = {
  400: err('Invalid arguments or missing required fields'),
  401: err('Invalid API key'),
  402: err('The agent owner has insufficient funds'),
  403: err('The agent or session belongs to another account'),
  404: err('Agent or session not found'),
  413: err('Payload too large'),
  500: err('Unexpected error'),
};
const pageParams = [
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
const sessionLinks = (ops: string[]) =>
  Object.fromEntries(ops.map((op) => [op, { operationId: op, parameters: { session_id: '$response.body#/session_id' } }]));
const sessionId = { name: 'session_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };

/**
 * The OpenAPI 3.1 document of the interface, generated from the core zod schemas and served at
 * `/openapi.json`. `/__emulator` test routes are not part of it.
 * @param baseUrl the emulator's `http://host:port`, used as the server URL.
 */
export function buildOpenApi(baseUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'Avatar Session Service (liveai-kit emulator)', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: baseUrl }],
    security: [{ ApiKeyAuth: [] }],
    paths: {
      '/liveai/rooms': {
        get: {
          operationId: 'listRooms',
          parameters: pageParams,
          responses: { 200: ok('Hosted sessions, newest first', ref('RoomList')), 400: E[400], 401: E[401], 500: E[500] },
        },
        post: {
          operationId: 'createRoom',
          requestBody: body('CreateRoomRequest'),
          responses: {
            201: { ...ok('The hosted room', ref('Room')), links: sessionLinks(['getSession', 'controlSession']) },
            400: E[400],
            401: E[401],
            402: E[402],
            404: E[404],
            413: E[413],
            500: E[500],
          },
        },
      },
      '/liveai/sessions': {
        get: {
          operationId: 'listSessions',
          parameters: pageParams,
          responses: { 200: ok('Sessions, newest first', ref('SessionList')), 400: E[400], 401: E[401], 500: E[500] },
        },
        post: {
          operationId: 'createSession',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: ref('CreateSessionRequest') },
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['image', 'payload'],
                  properties: {
                    image: {
                      type: 'string',
                      contentMediaType: 'image/*',
                      description: `368x560 intended, at most ${MAX_UPLOAD_BYTES} bytes`,
                    },
                    payload: ref('MultipartPayload'),
                  },
                },
                encoding: { payload: { contentType: 'application/json' }, image: { contentType: 'image/png, image/jpeg, image/webp' } },
              },
            },
          },
          responses: {
            201: { ...ok('The session', ref('Session')), links: sessionLinks(['getSession', 'controlSession', 'leaveMeeting']) },
            400: E[400],
            401: E[401],
            402: E[402],
            403: E[403],
            404: E[404],
            413: E[413],
            500: E[500],
          },
        },
      },
      '/liveai/sessions/{session_id}': {
        get: {
          operationId: 'getSession',
          parameters: [sessionId],
          responses: {
            200: ok('Session status; cost only when COMPLETED', ref('SessionStatusResponse')),
            401: E[401],
            403: E[403],
            404: E[404],
            500: E[500],
          },
        },
      },
      '/liveai/sessions/{session_id}/control': {
        post: {
          operationId: 'controlSession',
          security: [{}, { ApiKeyAuth: [] }],
          parameters: [sessionId],
          requestBody: body('ControlEvent'),
          responses: {
            200: ok('Accepted (not yet applied)', ref('ControlResponse')),
            400: E[400],
            401: E[401],
            403: E[403],
            404: E[404],
            413: err('Decoded image_base64 is 921600 bytes or more'),
          },
        },
      },
      '/liveai/sessions/{session_id}/leave-meeting': {
        post: {
          operationId: 'leaveMeeting',
          parameters: [sessionId],
          requestBody: body('LeaveMeetingRequest'),
          responses: {
            200: ok('The avatar left the meeting', ref('LeaveMeetingResponse')),
            400: E[400],
            401: E[401],
            403: E[403],
            404: E[404],
            413: E[413],
            409: err('Failed to leave / could not leave the meeting'),
            503: err('Meeting service is not configured'),
            504: err('Request timed out'),
          },
        },
      },
      '/liveai/assets/{file}': {
        get: {
          operationId: 'getAsset',
          security: [],
          description: 'Built-in agent images of the emulator (368x560 PNG).',
          parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, example: 'agent-demo.png' }],
          responses: {
            200: { description: 'PNG image', content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } },
            404: E[404],
          },
        },
      },
    },
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        ErrorBody: jsonSchema(ErrorBodySchema, 'output'),
        CreateRoomRequest: jsonSchema(CreateRoomRequestSchema, 'input'),
        Room: jsonSchema(RoomSchema, 'output'),
        RoomList: jsonSchema(RoomListSchema, 'output'),
        CreateSessionRequest: sessionRequest(),
        MultipartPayload: multipartPayload(),
        Session: jsonSchema(SessionSchema, 'output'),
        SessionStatusResponse: jsonSchema(SessionStatusResponseSchema, 'output'),
        SessionList: jsonSchema(SessionListSchema, 'output'),
        ControlEvent: controlRequest(),
        ControlResponse: jsonSchema(ControlResponseSchema, 'output'),
        LeaveMeetingRequest: jsonSchema(LeaveMeetingRequestSchema, 'input'),
        LeaveMeetingResponse: jsonSchema(LeaveMeetingResponseSchema, 'output'),
      },
    },
  };
}
