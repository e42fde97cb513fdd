import * as z from 'zod/mini';
import { DateTimeSchema, PaginationSchema, SessionStatusSchema } from './common';

/** Body of `POST /liveai/rooms`. */
export const CreateRoomRequestSchema = z.object({ agent_id: z.string().check(z.minLength(1, 'agent_id must not be empty')) });
export type CreateRoomRequest = z.infer<typeof CreateRoomRequestSchema>;

/** 201 response of `POST /liveai/rooms`. `token` is a room credential: never log it. */
export const RoomSchema = z.object({
  room_url: z.url(),
  token: z.string(),
  image_url: z.url(),
  session_id: z.string(),
});
export type Room = z.infer<typeof RoomSchema>;

/** Item of `GET /liveai/rooms`. */
export const RoomListItemSchema = z.object({
  agent_id: z.string(),
  session_id: z.string(),
  created_at: DateTimeSchema,
  session_status: SessionStatusSchema,
  credits_used: z.optional(z.nullable(z.number())),
});
export type RoomListItem = z.infer<typeof RoomListItemSchema>;

/** 200 response of `GET /liveai/rooms`. */
export const RoomListSchema = z.object({ rooms: z.array(RoomListItemSchema), pagination: PaginationSchema });
export type RoomList = z.infer<typeof RoomListSchema>;
