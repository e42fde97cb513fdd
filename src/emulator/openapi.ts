import { MAX_UPLOAD_BYTES } from '../core/index';
import {
  ControlResponseSchema,
  CreateRoomRequestSchema,
  ErrorBodySchema,
  LeaveMeetingRequestSchema,
  LeaveMeetingResponseSchema,
  RoomListSchema,
  RoomSchema,
  SessionListSchema,
  SessionSchema,
  SessionStatusResponseSchema,
} from '../core/validation';

import {
  jsonSchema,
  sessionRequest,
  multipartPayload,
  controlRequest,
  err,
  ok,
  ref,
  body,
  E,
  pageParams,
  sessionLinks,
  sessionId,
} from './openapi-parts';
/**
 * An OpenAPI 3.1 document as a plain JSON object (`openapi`, `info`, `servers`, `paths`, `components`, …).
 * @public
 */
export type OpenApiDocument = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document of the local service, generated from its request and response schemas, with
 * `baseUrl` as its server (the same document `GET /openapi.json` serves).
 * @public
 */
export function buildOpenApi(baseUrl: string): OpenApiDocument {
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
