import * as v from 'valibot';
import { DateTimeSchema, PaginationSchema, SessionStatusSchema } from './common';
import { urlSchema } from './parts';

/**
 * Body of `POST /liveai/rooms`.
 * @public
 */
export const CreateRoomRequestSchema = v.object({ agent_id: v.pipe(v.string(), v.minLength(1, 'agent_id must not be empty')) });
/** @public */
export type CreateRoomRequest = v.InferOutput<typeof CreateRoomRequestSchema>;

/**
 * 201 response of `POST /liveai/rooms`. `token` is a room credential: never log it.
 * @public
 */
export const RoomSchema = v.object({
  room_url: urlSchema(),
  token: v.string(),
  image_url: urlSchema(),
  session_id: v.string(),
});
/** @public */
export type Room = v.InferOutput<typeof RoomSchema>;

/**
 * Item of `GET /liveai/rooms`.
 * @public
 */
export const RoomListItemSchema = v.object({
  agent_id: v.string(),
  session_id: v.string(),
  created_at: DateTimeSchema,
  session_status: SessionStatusSchema,
  credits_used: v.optional(v.nullable(v.number())),
});
/** @public */
export type RoomListItem = v.InferOutput<typeof RoomListItemSchema>;

/**
 * 200 response of `GET /liveai/rooms`.
 * @public
 */
export const RoomListSchema = v.object({ rooms: v.array(RoomListItemSchema), pagination: PaginationSchema });
/** @public */
export type RoomList = v.InferOutput<typeof RoomListSchema>;
