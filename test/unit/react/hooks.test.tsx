import { act, render, renderHook } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useStore } from 'zustand';
import type { AvatarSession, AvatarSessionOptions } from '../../../src/core';
import {
  AvatarSessionProvider,
  useAvatarEvents,
  useAvatarSession,
  useControl,
  useMedia,
  useSession,
  useTranscript,
} from '../../../src/react';
import { createFakeProxy, FakeTransport, fakeTransportLoader } from '../../../src/testing';
import { until, useFakeClock } from '../core/helpers';
import { testSessions, wrap } from './session-wrapper';

afterEach(() => void vi.useRealTimers());

const make = testSessions();

describe('react hooks over a real engine', () => {
  it('useAvatarSession outside a provider throws a clear error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useAvatarSession())).toThrow(/AvatarSessionProvider/);
  });

  it('useSession follows the phases of start and end', async () => {
    useFakeClock();
    const s = make();
    const { result } = renderHook(() => useSession(), { wrapper: wrap(s) });
    expect(result.current.phase).toBe('idle');
    await act(async () => {
      void result.current.start();
      await until(() => s.store.getState().phase === 'queued', 'queued');
    });
    expect(result.current.phase).toBe('queued');
    expect(result.current.sessionId).toBe('sess_1');
    await act(async () => {
      s.proxy.setStatus('sess_1', 'ACTIVE');
      await until(() => s.store.getState().phase === 'active', 'active (the next status poll)');
    });
    expect(result.current.phase).toBe('active');
    await act(() => result.current.endSession());
    expect(result.current.phase).toBe('ended');
    expect(result.current.cost).toBe(1.25);
  });

  it('useTranscript and useAvatarEvents see transport events; the latest handler is called', async () => {
    const s = make({ initialState: { phase: 'active' } });
    const seen: string[] = [];
    const { result, rerender } = renderHook(
      ({ tag }) => {
        useAvatarEvents('agent_transcription', (e) => seen.push(`${tag}:${e.transcription}`));
        return useTranscript({ limit: 2 });
      },
      { wrapper: wrap(s), initialProps: { tag: 'a' } },
    );
    act(() => s.transport.emitEvent({ type: 'user_transcription', transcription: 'hello' }));
    rerender({ tag: 'b' });
    act(() => s.transport.emitEvent({ type: 'agent_transcription', transcription: 'hi there' }));
    act(() => s.transport.emitEvent({ type: 'agent_transcription', transcription: 'how can I help?' }));
    expect(result.current.map((l) => l.text)).toEqual(['hi there', 'how can I help?']);
    expect(seen).toEqual(['b:hi there', 'b:how can I help?']);
  });

  it('a transcript event does not re-render a component that only reads phase', async () => {
    const s = make({ initialState: { phase: 'active' } });
    const renders = { phase: 0, session: 0, transcript: 0 };
    function PhaseOnly() {
      renders.phase++;
      return <span>{useStore(useAvatarSession().store, (st) => st.phase)}</span>;
    }
    function SessionReader() {
      renders.session++;
      return <span>{useSession().phase}</span>;
    }
    function TranscriptReader() {
      renders.transcript++;
      return <span>{useTranscript().length}</span>;
    }
    render(
      <AvatarSessionProvider session={s}>
        <PhaseOnly />
        <SessionReader />
        <TranscriptReader />
      </AvatarSessionProvider>,
    );
    const before = { ...renders };
    act(() => s.transport.emitEvent({ type: 'user_transcription', transcription: 'one' }));
    act(() => s.transport.emitEvent({ type: 'agent_transcription', transcription: 'two' }));
    expect(renders.phase).toBe(before.phase);
    expect(renders.session).toBe(before.session);
    expect(renders.transcript).toBe(before.transcript + 2);
  });

  it('useControl sends chat over the transport and tracks image change states', async () => {
    const s = make({ initialState: { phase: 'active' } });
    const { result } = renderHook(() => useControl(), { wrapper: wrap(s) });
    await act(() => result.current.sendChat('hello avatar'));
    expect(s.transport.sentMessages).toEqual([{ event: 'chat-msg', message: 'hello avatar', name: 'user' }]);
    await act(() => result.current.updateImage({ url: 'https://img.example/new.png' }));
    expect(result.current.image.status).toBe('requested');
    act(() => s.transport.emitEvent({ type: 'image_created' }));
    expect(result.current.image.status).toBe('created');
    act(() => s.transport.emitEvent({ type: 'image_change_complete' }));
    expect(result.current.image.status).toBe('complete');
    await expect(result.current.sendChat('   ')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('useMedia exposes tracks and the speaker setters', async () => {
    const s = make({ initialState: { phase: 'active' } });
    const { result } = renderHook(() => useMedia(), { wrapper: wrap(s) });
    expect(result.current.connection).toBe('connected');
    const track = { kind: 'video', id: 'v1' } as unknown as MediaStreamTrack;
    act(() => s.transport.emitTrack('video', track));
    expect(result.current.videoTrack).toBe(track);
    act(() => result.current.setVolume(0.3));
    act(() => result.current.setSpeakerMuted(true));
    expect(result.current.volume).toBe(0.3);
    expect(result.current.speakerMuted).toBe(true);
  });

  it('the provider creates one session from options, survives StrictMode and disposes (ends) on unmount', async () => {
    const proxy = createFakeProxy({ initialStatus: 'ACTIVE' });
    const options: AvatarSessionOptions = {
      proxyUrl: 'http://proxy.test',
      flow: { kind: 'room', agentId: 'agent-1' },
      fetch: proxy.fetch,
      loadTransport: fakeTransportLoader(new FakeTransport()),
      pollIntervalMs: 5,
      endOnUnload: false,
    };
    let session: AvatarSession | undefined;
    function Grab() {
      session = useAvatarSession();
      return null;
    }
    const view = render(
      <StrictMode>
        <AvatarSessionProvider options={options}>
          <Grab />
        </AvatarSessionProvider>
      </StrictMode>,
    );
    await act(() => session!.start());
    expect(session!.store.getState().phase).toBe('active');
    useFakeClock();
    view.unmount();
    await until(() => session!.store.getState().phase === 'ended', 'ended (disposal waits a tick)');
    expect(session!.store.getState().phase).toBe('ended');
    expect(session!.store.getState().endReason).toBe('unmount');
    expect(proxy.callsTo('POST /sessions/:id/end')).toHaveLength(1);
  });
});
