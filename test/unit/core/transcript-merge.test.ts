import { describe, expect, it } from 'vitest';
import { TranscriptMerger } from '../../../src/core/session/transcript-merge';
import type { TranscriptLine } from '../../../src/core/session/types';
import { AvatarIdentity } from '../../../src/core/transports/avatar-identity';
import { transcriptionHandler } from '../../../src/core/transports/livekit/room';

function merger() {
  let id = 0;
  const m = new TranscriptMerger(() => ++id);
  let lines: TranscriptLine[] = [];
  const now = 1_000_000;
  return {
    service: (role: 'user' | 'agent', text: string, t = now) => void (lines = m.service(lines, role, text, t) ?? lines),
    segment: (role: 'user' | 'agent', segmentId: string, text: string, final = false, t = now) =>
      void (lines = m.segment(lines, { role, segmentId, text, final }, t) ?? lines),
    texts: () => lines.map((l) => `${l.role}: ${l.text}`),
  };
}

describe('transcript: service events and lk.transcription segments merged without duplicates', () => {
  it('a segment that grows updates one line', () => {
    const t = merger();
    t.segment('agent', 's1', 'Hello');
    t.segment('agent', 's1', 'Hello there!');
    t.segment('agent', 's1', 'Hello there! I am the avatar.', true);
    expect(t.texts()).toEqual(['agent: Hello there! I am the avatar.']);
  });

  it('the service event after the segment joins its line; before the segment, the segment joins the event’s line', () => {
    const t = merger();
    t.segment('agent', 's1', 'Hello there', false);
    t.service('agent', 'Hello there, I am the avatar.');
    t.segment('agent', 's1', 'Hello there! I am the avatar.', true);
    t.service('user', 'What can you do?');
    t.segment('user', 'u1', 'what can you do', true);
    expect(t.texts()).toEqual(['agent: Hello there, I am the avatar.', 'user: What can you do?']);
  });

  it('the same words said twice by the service are two lines; the speaker matters; old lines are not matched', () => {
    const t = merger();
    t.service('agent', 'OK.');
    t.service('agent', 'OK.');
    t.segment('user', 'u1', 'OK.', true);
    t.segment('agent', 's9', 'Sure.', true, 1_000_000 - 120_000);
    t.service('agent', 'Sure.');
    expect(t.texts()).toEqual(['agent: OK.', 'agent: OK.', 'user: OK.', 'agent: Sure.', 'agent: Sure.']);
  });
});

describe('LiveKit: which participant is the avatar', () => {
  it('lk.publish_on_behalf wins over a liveai-avatar-… name; nobody is taken for the avatar for speaking first', () => {
    const p = new AvatarIdentity();
    expect(p.claim('user-2')).toBe(false); // nothing known yet: nobody is taken for the avatar
    expect(p.accepts('user-2')).toBe(false);
    expect(p.speaksFor('user-2')).toBe(false);
    expect(p.reachableIn(new Set(['user-2']))).toBe(false);
    expect(p.see('liveai-avatar-1234abcd')).toBe(true);
    expect(p.see('lemonslice-avatar-agent', { 'lk.publish_on_behalf': 'agent' })).toBe(true);
    expect(p.accepts('lemonslice-avatar-agent')).toBe(true);
    expect(p.accepts('liveai-avatar-1234abcd')).toBe(false);
    expect(p.accepts('agent')).toBe(false);
    expect(p.speaksFor('agent')).toBe(true); // the agent's transcriptions are the avatar's side
    expect(p.claim('someone-else')).toBe(false);
    expect(p.reachableIn(new Set(['lemonslice-avatar-agent']))).toBe(true);
  });

  it('the identity the session handle names is the only avatar; its own lk.publish_on_behalf names its agent', () => {
    const p = new AvatarIdentity({ expected: 'liveai-avatar-real' });
    expect(p.see({ identity: 'x', attributes: { 'lk.publish_on_behalf': 'evil-agent' } })).toBe(false);
    expect(p.see('liveai-avatar-fake')).toBe(false);
    expect(p.see({ identity: 'bot', kind: 4 })).toBe(false);
    expect(p.speaksFor('evil-agent')).toBe(false);
    expect(p.see({ identity: 'liveai-avatar-real', attributes: { 'lk.publish_on_behalf': 'liveai-agent-real' } })).toBe(false);
    expect(p.accepts('liveai-avatar-real')).toBe(true);
    expect(p.speaksFor('liveai-agent-real')).toBe(true);
    expect(p.accepts('x')).toBe(false);
  });

  it('Daily: the first sender is the avatar for the whole call', () => {
    const p = new AvatarIdentity({ firstSeen: true });
    expect(p.accepts('a')).toBe(true);
    expect(p.claim('a')).toBe(true);
    expect(p.claim('b')).toBe(false);
    expect(p.accepts('b')).toBe(false);
  });
});

describe('LiveKit: lk.transcription text streams', () => {
  const reader = (chunks: string[], attributes: Record<string, string>) => ({
    info: { id: 'stream-1', attributes },
    readAll: async () => chunks.join(''),
    async *[Symbol.asyncIterator]() {
      yield* chunks;
    },
  });
  it('reports the growing text of a segment, then the final one; the user is whoever the stream is sent for as us', async () => {
    const out: unknown[] = [];
    const handle = transcriptionHandler(
      () => 'user-1',
      (v) => out.push(v),
    );
    handle(reader(['Hello ', 'there!'], { 'lk.segment_id': 'SG_1', 'lk.transcription_final': 'false' }), { identity: 'agent' });
    handle(reader(['what can you do'], { 'lk.segment_id': 'SG_2' }), { identity: 'user-1' });
    await new Promise((r) => setTimeout(r, 0));
    const of = (role: string) => out.filter((o) => (o as { role: string }).role === role);
    expect(of('agent')).toEqual([
      { role: 'agent', text: 'Hello ', segmentId: 'SG_1', final: false },
      { role: 'agent', text: 'Hello there!', segmentId: 'SG_1', final: false },
      { role: 'agent', text: 'Hello there!', segmentId: 'SG_1', final: true },
    ]);
    expect(of('user')).toEqual([
      { role: 'user', text: 'what can you do', segmentId: 'SG_2', final: false },
      { role: 'user', text: 'what can you do', segmentId: 'SG_2', final: true },
    ]);
  });

  it('a transcription from anyone but us and the avatar’s side is ignored', async () => {
    const out: unknown[] = [];
    const handle = transcriptionHandler(
      () => 'user-1',
      (v) => out.push(v),
      (identity) => identity === 'agent',
    );
    handle(reader(['<b>fake</b>'], { 'lk.segment_id': 'SG_9' }), { identity: 'viewer-2' });
    handle(reader(['real'], { 'lk.segment_id': 'SG_10' }), { identity: 'agent' });
    await new Promise((r) => setTimeout(r, 0));
    expect(out.map((o) => (o as { text: string }).text)).toEqual(['real', 'real']);
  });

  it('the agent’s deltas in a second stream of the same segment continue its text: the whole sentence shows, not only the last clause', async () => {
    const out: { text: string; final: boolean }[] = [];
    const handle = transcriptionHandler(
      () => 'user-1',
      (v) => out.push(v),
    );
    handle(reader(['Hello there, ', 'I am your avatar, '], { 'lk.segment_id': 'SG_7', 'lk.transcription_final': 'false' }), {
      identity: 'agent',
    });
    await new Promise((r) => setTimeout(r, 0));
    handle(reader(['running on a local LiveKit server.'], { 'lk.segment_id': 'SG_7', 'lk.transcription_final': 'true' }), {
      identity: 'agent',
    });
    await new Promise((r) => setTimeout(r, 0));
    const t = merger();
    for (const o of out) t.segment('agent', 'SG_7', o.text, o.final);
    expect(t.texts()).toEqual(['agent: Hello there, I am your avatar, running on a local LiveKit server.']);
  });
});
