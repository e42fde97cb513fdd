import * as z from 'zod/mini';
import { DateTimeSchema, PaginationSchema, SessionStatusSchema } from './common';

/**
 * Body of `POST /liveai/rooms`.
 * @public
 */
export const CreateRoomRequestSchema = z.object({ agent_id: z.string().check(z.minLength(1, 'agent_id must not be empty')) });
/** @public */
export type CreateRoomRequest = z.infer<typeof CreateRoomRequestSchema>;

/**
 * 201 response of `POST /liveai/rooms`. `token` is a room credential: never log it.
 * @public
 */
export const RoomSchema = z.object({
  room_url: z.url(),
  token: z.string(),
  image_url: z.url(),
  session_id: z.string(),
});
/** @public */
export type Room = z.infer<typeof RoomSchema>;

/**
 * Item of `GET /liveai/rooms`.
 * @public
 */
export const RoomListItemSchema = z.object({
  agent_id: z.string(),
  session_id: z.string(),
  created_at: DateTimeSchema,
  session_status: SessionStatusSchema,
  credits_used: z.optional(z.nullable(z.number())),
});
/** @public */
export type RoomListItem = z.infer<typeof RoomListItemSchema>;

/**
 * 200 response of `GET /liveai/rooms`.
 * @public
 */
export const RoomListSchema = z.object({ rooms: z.array(RoomListItemSchema), pagination: PaginationSchema });
/** @public */
export type RoomList = z.infer<typeof RoomListSchema>;
