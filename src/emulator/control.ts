import type { ControlEvent } from '../core/index';
import type { EmulatorContext } from './context';
import { emitEvent } from './event-log';
import { decodeInlineImage, fetchImage, toAvatarPng } from './images';
import { finish, later, touch } from './lifecycle';
import type { SessionRecord } from './store';

const live = (rec: SessionRecord) => rec.status === 'QUEUED' || rec.status === 'ACTIVE';

/**
 * `update-image`: emits `image_change_requested`; downloads `image_url` (with the fetch timeout)
 * or decodes `image_base64`; checks and crops it with sharp; emits `image_created`; `imageChangeMs` later swaps
 * the avatar's image and emits `image_change_complete`. Any failure emits `image_change_error` {error}.
 */
export async function runImageChange(
  ctx: EmulatorContext,
  rec: SessionRecord,
  source: { image_url?: string; image_base64?: string },
): Promise<void> {
  emitEvent(ctx, rec, { type: 'image_change_requested' });
  let png: Buffer;
  try {
    const raw = source.image_base64 !== undefined ? decodeInlineImage(source.image_base64) : await fetchImage(ctx, source.image_url ?? '');
    png = await toAvatarPng(raw).catch(() => {
      throw new Error('the image bytes are not a decodable image');
    });
  } catch (e) {
    if (live(rec)) emitEvent(ctx, rec, { type: 'image_change_error', error: (e as Error).message });
    return;
  }
  if (!live(rec)) return;
  emitEvent(ctx, rec, { type: 'image_created' });
  later(rec, ctx.options.imageChangeMs, () => {
    void (async () => {
      try {
        await rec.media?.setImage(png);
      } catch (e) {
        emitEvent(ctx, rec, { type: 'image_change_error', error: `the avatar could not use the image: ${(e as Error).message}` });
        return;
      }
      if (!live(rec)) return;
      rec.image = { url: source.image_url ?? null, bytes: png };
      emitEvent(ctx, rec, { type: 'image_change_complete' });
    })();
  });
}

/**
 * Applies an accepted control event. Every event counts as activity (restarts the idle clock).
 * `terminate` ends the session COMPLETED (charged); prompts go to the avatar's demeanour; `action` plays a motion.
 */
export function applyControl(ctx: EmulatorContext, rec: SessionRecord, event: ControlEvent): void {
  touch(ctx, rec);
  switch (event.event) {
    case 'terminate':
      finish(ctx, rec, 'COMPLETED', 'terminate');
      return;
    case 'update-image':
      void runImageChange(ctx, rec, event);
      return;
    case 'update-agent-prompt':
      rec.demeanour = { ...rec.demeanour, agentPrompt: event.agent_prompt };
      rec.media?.setDemeanour(rec.demeanour);
      return;
    case 'update-idle-prompt':
      rec.demeanour = { ...rec.demeanour, idlePrompt: event.idle_prompt };
      rec.media?.setDemeanour(rec.demeanour);
      return;
    case 'action':
      rec.actions.push(event.action);
      rec.media?.playAction(event.action);
      return;
    case 'reset-idle-timeout':
      return;
    default:
      // A new row of CONTROL_EVENTS needs its effect here: this line stops compiling until it has one.
      return event satisfies never;
  }
}
