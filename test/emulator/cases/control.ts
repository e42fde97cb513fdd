import sharp from 'sharp';
import { expect } from 'vitest';
import { renderFacePng } from '../../../src/emulator/assets';
import { ALICE, bodies } from '../helpers';
import { expectError, type Case } from './types';

/** Base64 text that decodes to exactly `n` bytes. */
const b64OfSize = (n: number) => Buffer.alloc(n, 7).toString('base64');
const ORDER = ['image_change_requested', 'image_created', 'image_change_complete'];
const imageTypes = (types: string[]) => types.filter((t) => t.startsWith('image_'));

export const controlCases: Case[] = [
  {
    name: 'control: 404 when the session does not exist',
    run: async ({ h }) => expectError(await h.control('nope', { event: 'terminate' }), 404, /not found/),
  },
  {
    name: 'control: 200 {success: true} for an accepted event',
    run: async ({ h }) => {
      const id = await h.session();
      const res = await h.control(id, { event: 'update-idle-prompt', idle_prompt: 'calm' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    },
  },
  {
    name: 'control: 400 for an unknown event',
    run: async ({ h }) => expectError(await h.control(await h.session(), { event: 'dance' }), 400, /unknown event/),
  },
  {
    name: 'control: 400 when the event field is missing',
    run: async ({ h }) => expectError(await h.control(await h.session(), { action: 'wave' }), 400, /event is required/),
  },
  {
    name: 'control: 400 for update-image with neither image_url nor image_base64',
    run: async ({ h }) =>
      expectError(await h.control(await h.session(), { event: 'update-image' }), 400, /exactly one of image_url or image_base64/),
  },
  {
    name: 'control: 400 for update-image with both image_url and image_base64',
    run: async ({ h }) =>
      expectError(
        await h.control(await h.session(), { event: 'update-image', image_url: 'https://x.test/a.png', image_base64: 'AAAA' }),
        400,
        /exactly one/,
      ),
  },
  {
    name: 'control: 400 for update-agent-prompt without agent_prompt',
    run: async ({ h }) => expectError(await h.control(await h.session(), { event: 'update-agent-prompt' }), 400, /agent_prompt/),
  },
  {
    name: 'control: 400 for update-idle-prompt without idle_prompt',
    run: async ({ h }) => expectError(await h.control(await h.session(), { event: 'update-idle-prompt' }), 400, /idle_prompt/),
  },
  {
    name: 'control: 400 for action without action',
    run: async ({ h }) => expectError(await h.control(await h.session(), { event: 'action' }), 400, /action/),
  },
  {
    name: 'control: 400 when image_base64 is not base64',
    run: async ({ h }) =>
      expectError(await h.control(await h.session(), { event: 'update-image', image_base64: 'not base64!' }), 400, /base64/),
  },
  {
    name: 'control: 413 when decoded image_base64 is 921600 bytes; detail states the size and the limit',
    run: async ({ h }) => {
      const res = await h.control(await h.session(), { event: 'update-image', image_base64: b64OfSize(921_600) });
      expectError(res, 413, /921600 bytes.*921600 bytes/);
    },
  },
  {
    name: 'control: 413 for a 1000000-byte data URL; detail names 1000000 and 921600',
    run: async ({ h }) => {
      const res = await h.control(await h.session(), {
        event: 'update-image',
        image_base64: `data:image/png;base64,${b64OfSize(1_000_000)}`,
      });
      expectError(res, 413, /1000000.*921600/);
    },
  },
  {
    name: 'control: 921599 decoded bytes are accepted (200), then image_change_error since they are not an image',
    run: async ({ h }) => {
      const id = await h.activeSession();
      expect((await h.control(id, { event: 'update-image', image_base64: b64OfSize(921_599) })).status).toBe(200);
      const err = await h.event(id, 'image_change_error');
      expect(String(err.event.error)).toMatch(/not a decodable image/);
    },
  },
  {
    name: 'control: update-image with a data URL: image_change_requested → image_created → image_change_complete',
    run: async ({ h }) => {
      const id = await h.activeSession();
      const png = await renderFacePng('someone-else');
      await h.control(id, { event: 'update-image', image_base64: `data:image/png;base64,${png.toString('base64')}` }).expect(200);
      await h.event(id, 'image_change_complete');
      expect(imageTypes(h.types(id))).toEqual(ORDER);
    },
  },
  {
    name: 'control: update-image with image_url: the image is downloaded, then the same three events',
    run: async ({ h }) => {
      const id = await h.activeSession();
      await h.control(id, { event: 'update-image', image_url: `${h.url}/liveai/assets/agent-cartoon.png` }).expect(200);
      await h.event(id, 'image_change_complete');
      expect(imageTypes(h.types(id))).toEqual(ORDER);
      expect(h.emu.state.session(id)?.image.url).toBe(`${h.url}/liveai/assets/agent-cartoon.png`);
    },
  },
  {
    name: 'events: update-image with an image_url that cannot be downloaded → image_change_error {error}',
    run: async ({ h }) => {
      const id = await h.activeSession();
      await h.control(id, { event: 'update-image', image_url: `${h.url}/liveai/assets/missing.png` }).expect(200);
      const err = await h.event(id, 'image_change_error');
      // The reason (HTTP 404) goes to the emulator's log only.
      expect(String(err.event.error)).toBe('could not download the image');
      expect(imageTypes(h.types(id))).toEqual(['image_change_requested', 'image_change_error']);
    },
  },
  {
    name: 'events: update-image with a URL that serves no image → image_change_error',
    run: async ({ h }) => {
      const id = await h.activeSession();
      await h.control(id, { event: 'update-image', image_url: `${h.url}/openapi.json` }).expect(200);
      expect(String((await h.event(id, 'image_change_error')).event.error)).toMatch(/not a decodable image/);
    },
  },
  {
    name: 'control: image_change_complete comes imageChangeMs after image_created, and the new image is 368x560',
    run: async ({ fresh }) => {
      const h = await fresh({ imageChangeMs: 150 });
      const id = await h.activeSession();
      const wide = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer();
      await h.control(id, { event: 'update-image', image_base64: wide.toString('base64') }).expect(200);
      await h.event(id, 'image_change_complete');
      const log = h.emu.state.events(id);
      const at = (t: string) => Date.parse(log.find((e) => e.event.type === t)!.at);
      expect(at('image_change_complete') - at('image_created')).toBeGreaterThanOrEqual(140);
      expect(h.emu.state.session(id)?.image.bytes).toBeGreaterThan(0);
    },
  },
  {
    name: 'control: update-agent-prompt and update-idle-prompt set the avatar demeanour',
    run: async ({ h }) => {
      const id = await h.session();
      await h.control(id, { event: 'update-agent-prompt', agent_prompt: 'enthusiastic' }).expect(200);
      await h.control(id, { event: 'update-idle-prompt', idle_prompt: 'patient' }).expect(200);
      expect(h.emu.state.session(id)?.demeanour).toEqual({ agentPrompt: 'enthusiastic', idlePrompt: 'patient' });
    },
  },
  {
    name: 'control: action plays a named whole-body action',
    run: async ({ h }) => {
      const id = await h.session();
      await h.control(id, { event: 'action', action: 'wave' }).expect(200);
      expect(h.emu.state.session(id)?.actions).toEqual(['wave']);
    },
  },
  {
    name: 'control: after the session ended, terminate is still 200 and other events are 400 (emulator rule)',
    run: async ({ h }) => {
      const id = await h.session();
      await h.control(id, { event: 'terminate' }).expect(200);
      expect((await h.control(id, { event: 'terminate' })).body).toEqual({ success: true });
      expectError(await h.control(id, { event: 'action', action: 'wave' }), 400, /has ended/);
    },
  },
  {
    name: 'control: malformed JSON → 400 {detail}, never 500',
    run: async ({ h }) =>
      expectError(
        await h
          .raw('post', `/liveai/sessions/${await h.session()}/control`)
          .type('json')
          .send('{"event":"terminate",}'),
        400,
        /malformed JSON/,
      ),
  },
  {
    name: 'control: a non-JSON body → 400',
    run: async ({ h }) =>
      expectError(
        await h
          .raw('post', `/liveai/sessions/${await h.session()}/control`)
          .type('text')
          .send('terminate'),
        400,
        /JSON object/,
      ),
  },
  {
    name: 'states: terminate on a hosted room ends it COMPLETED',
    run: async ({ h }) => {
      const { body } = await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE);
      await h.status(body.session_id, 'ACTIVE');
      await h.control(body.session_id, { event: 'terminate' }, ALICE).expect(200);
      expect((await h.get(`/liveai/sessions/${body.session_id}`, ALICE)).body.session_status).toBe('COMPLETED');
    },
  },
  {
    name: 'control: any accepted control event (here action and update-idle-prompt) counts as activity and postpones the idle timeout',
    run: async ({ fresh }) => {
      const h = await fresh({ idleTimeoutS: 0.6 });
      const id = await h.activeSession(bodies.wsB());
      for (let i = 0; i < 6; i++) {
        const event = i % 2 ? { event: 'action', action: 'nod' } : { event: 'update-idle-prompt', idle_prompt: `calm ${i}` };
        expect((await h.control(id, event)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 150)); // pacing of the user's actions, not synchronisation
      }
      expect(h.emu.state.session(id)?.session_status).toBe('ACTIVE');
      await h.event(id, 'idle_timeout');
    },
  },
];

controlCases.push({
  name: 'control: with imageHosts "loopback", an image_url on another host → image_change_error, nothing is fetched',
  run: async ({ h }) => {
    const id = await h.activeSession();
    await h.control(id, { event: 'update-image', image_url: 'https://images.example.test/face.png' }).expect(200);
    expect(String((await h.event(id, 'image_change_error')).event.error)).toBe('could not download the image');
  },
});
