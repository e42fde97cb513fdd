import { fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AvatarStage, AvatarWidget } from '../../../src/components';
import type { AvatarSession } from '../../../src/core';
import { transportHint } from '../../../src/core/transports/choose';
import { AvatarSessionProvider } from '../../../src/react';
import { createTestSession, FakeTransport, fakeTransportLoader } from '../../../src/testing';

let sessions: AvatarSession[] = [];
afterEach(() => {
  sessions.forEach((s) => s.dispose({ end: false }));
  sessions = [];
});

describe('prefetch: warm up the chunks start() needs (first-frame latency)', () => {
  it('knows the transport before creation for forced, session and attach flows; not for hosted rooms', () => {
    expect(transportHint({ flow: { kind: 'room', agentId: 'a' } })).toBeNull();
    expect(transportHint({ flow: { kind: 'room', agentId: 'a' }, transport: 'rtc-b' })).toBe('rtc-b');
    expect(transportHint({ flow: { kind: 'session', request: { agent_id: 'a', transport_type: 'websocket-rtc-a' } } as never })).toBe(
      'rtc-a',
    );
    expect(transportHint({ flow: { kind: 'session', request: { agent_id: 'a', transport_type: 'rtc-b' } } as never })).toBe('rtc-b');
    expect(transportHint({ flow: { kind: 'attach', session: { room_url: 'wss://lk.example.test' } } as never })).toBe('rtc-a');
  });

  it('hovering or focusing "Start call" loads the adapter chunk once, without creating a session', () => {
    const loader = fakeTransportLoader(new FakeTransport());
    const s = createTestSession({
      flow: { kind: 'session', request: { agent_id: 'a', transport_type: 'rtc-a' } } as never,
      loadTransport: loader,
    });
    sessions.push(s);
    render(createElement(AvatarSessionProvider, { session: s, endOnUnmount: false }, createElement(AvatarStage)));
    const button = screen.getByRole('button', { name: 'Start call' });
    fireEvent.pointerOver(button); // how React sees the pointer entering
    button.focus();
    expect(loader.kinds).toEqual(['rtc-a', 'rtc-a']);
    expect(s.proxy.calls).toEqual([]);
    expect(s.store.getState().phase).toBe('idle');
  });

  it('hovering or focusing the minimized widget’s launcher already warms up the call', () => {
    const loader = fakeTransportLoader(new FakeTransport());
    const s = createTestSession({
      flow: { kind: 'session', request: { agent_id: 'a', transport_type: 'rtc-a' } } as never,
      loadTransport: loader,
    });
    sessions.push(s);
    render(createElement(AvatarWidget, { session: s }));
    const launcher = screen.getByRole('button', { name: /Talk to/ });
    fireEvent.pointerOver(launcher);
    launcher.focus();
    expect(loader.kinds).toEqual(['rtc-a', 'rtc-a']);
    expect(s.proxy.calls).toEqual([]);
  });
});
