import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AvatarEvent } from '../../../src/core';
import { useAvatarEvents, useControl } from '../../../src/react';
import { testSessions, wrap } from './session-wrapper';

/**
 * Issue 5, "every spec event and control is reachable from a hook": the ten service events each reach a
 * `useAvatarEvents(type)` subscriber with their fields, and every control event, leave-meeting and the app
 * messages goes out through `useControl()` — over a real session engine, the fake proxy and the fake transport.
 */
const EVENTS: AvatarEvent[] = [
  { type: 'bot_ready' },
  { type: 'idle_timeout' },
  { type: 'user_transcription', transcription: 'hello' },
  { type: 'agent_transcription', transcription: 'hi, how can I help?' },
  { type: 'image_change_requested' },
  { type: 'image_created' },
  { type: 'image_change_complete' },
  { type: 'image_change_error', error: 'could not download the image' },
  { type: 'daily_error', error: 'network', fatal: false },
  { type: 'video_generation_error' },
];

const make = testSessions({ initialState: { phase: 'active' } });

describe('every service event reaches useAvatarEvents, typed per event', () => {
  it.each(EVENTS.map((e) => [e.type, e] as const))('%s', (type, event) => {
    const s = make();
    const seen: AvatarEvent[] = [];
    const all: string[] = [];
    renderHook(
      () => {
        useAvatarEvents(type, (e: AvatarEvent) => seen.push(e));
        useAvatarEvents('*', (e) => all.push(e.type));
      },
      { wrapper: wrap(s) },
    );
    act(() => s.transport.emitEvent(event));
    expect(seen).toEqual([event]);
    expect(all).toContain(type);
  });

  it('a malformed event becomes an `error` event for useAvatarEvents("error"), never a throw', () => {
    const s = make();
    const errors: string[] = [];
    renderHook(() => useAvatarEvents('error', (e) => errors.push(e.code)), { wrapper: wrap(s) });
    act(() => s.transport.emitRaw({ type: 'user_transcription' }));
    act(() => s.transport.emitRaw('not json {'));
    expect(errors).toEqual(['invalid_event', 'invalid_event']);
  });
});

describe('every control reaches the service through useControl', () => {
  const controls: [string, (c: ReturnType<typeof useControl>) => Promise<unknown>, unknown][] = [
    ['terminate', (c) => c.control({ event: 'terminate' }), { event: 'terminate' }],
    [
      'update-image (URL)',
      (c) => c.updateImage({ url: 'https://images.example.test/a.jpg' }),
      { event: 'update-image', image_url: 'https://images.example.test/a.jpg' },
    ],
    ['update-agent-prompt', (c) => c.updateAgentPrompt('be warm'), { event: 'update-agent-prompt', agent_prompt: 'be warm' }],
    ['update-idle-prompt', (c) => c.updateIdlePrompt('look around'), { event: 'update-idle-prompt', idle_prompt: 'look around' }],
    ['action', (c) => c.action('wave'), { event: 'action', action: 'wave' }],
    ['reset-idle-timeout', (c) => c.resetIdleTimeout(), { event: 'reset-idle-timeout' }],
  ];
  it.each(controls)('%s goes to POST /sessions/:id/control with the spec body', async (_name, call, body) => {
    const s = make();
    const { result } = renderHook(() => useControl(), { wrapper: wrap(s) });
    await act(() => call(result.current));
    expect(s.proxy.callsTo('POST /sessions/:id/control').map((c) => c.body)).toEqual([body]);
  });

  it('client-side rules reject before the network: two image sources, empty prompts', async () => {
    const s = make();
    const { result } = renderHook(() => useControl(), { wrapper: wrap(s) });
    const both = { event: 'update-image', image_url: 'https://x.test/a.jpg', image_base64: 'AAAA' } as never;
    await expect(result.current.control(both)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(result.current.updateAgentPrompt('')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(result.current.updateIdlePrompt('')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(result.current.action('')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(s.proxy.callsTo('POST /sessions/:id/control')).toEqual([]);
  });

  it('sendChat and forceEnd go out as the app messages chat-msg and force-end', async () => {
    const s = make();
    const { result } = renderHook(() => useControl(), { wrapper: wrap(s) });
    await act(() => result.current.sendChat('hello avatar'));
    await act(() => result.current.forceEnd());
    expect(s.transport.sentMessages.map((m) => m.event)).toEqual(['chat-msg', 'force-end']);
    expect(s.transport.sentMessages[0]).toMatchObject({ event: 'chat-msg', message: 'hello avatar' });
  });

  it('leaveMeeting calls POST /sessions/:id/leave-meeting with meeting_bot_id', async () => {
    const s = make({
      flow: { kind: 'session', request: { transport: 'rtc-a', agent_id: 'agent-demo' } } as never,
      initialState: { phase: 'active', transport: 'rtc-a' },
    });
    const { result } = renderHook(() => useControl(), { wrapper: wrap(s) });
    let out: unknown;
    await act(async () => {
      out = await result.current.leaveMeeting('bot_123');
    });
    expect(out).toEqual({ status: 'left' });
    expect(s.proxy.callsTo('POST /sessions/:id/leave-meeting').map((c) => c.body)).toEqual([{ meeting_bot_id: 'bot_123' }]);
  });
});
