import { Profiler } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { AvatarWidget } from '../../../src/components';
import { createFakeProxy, createTestSession } from '../../../src/testing';
import { fakeVideoTrack } from '../core/helpers';

/**
 * Main-thread work between the click on "Start call" and the first video frame: what the widget re-renders while
 * the call connects. Each part is counted (a wrapper around the module's export: the frame's view, and the
 * connected stage, controls, transcript and chat, each of which renders its view once per render); the session is
 * the real engine over the fake proxy (the avatar already publishing when the create call answers) and a
 * FakeTransport.
 */
const { renders, counted } = vi.hoisted(() => {
  const renders: Record<string, number> = {};
  const counted = (name: string) => async (orig: () => Promise<Record<string, unknown>>) => {
    const m = await orig();
    const Part = m[name] as (p: object) => unknown;
    return { ...m, [name]: (p: object) => ((renders[name] = (renders[name] ?? 0) + 1), Part(p)) };
  };
  return { renders, counted };
});
vi.mock('../../../src/components/widget/AvatarWidgetView', counted('AvatarWidgetView'));
vi.mock('../../../src/components/stage/AvatarStage', counted('AvatarStage'));
vi.mock('../../../src/components/widget/CallControls', counted('CallControls'));
vi.mock('../../../src/components/transcript/TranscriptPanel', counted('TranscriptPanel'));
vi.mock('../../../src/components/controls/ChatInput', counted('ChatInput'));

it('from click to first frame, the widget re-renders its parts only for what they show', async () => {
  const session = createTestSession({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
  let commits = 0;
  const connection: string[] = [];
  session.store.subscribe((s, prev) => s.media.connection !== prev.media.connection && connection.push(s.media.connection));
  render(
    <Profiler id="widget" onRender={() => commits++}>
      <AvatarWidget session={session} variant="inline" />
    </Profiler>,
  );
  // The call's parts are fetched before the click (Start in view or pointed at), as on a page.
  await act(async () => void (await import('../../../src/components/widget/call-ui')));
  await act(async () => void (await import('../../../src/components/stage/AvatarStage').then((m) => m.loadCallScreens())));
  commits = 0;
  for (const k of Object.keys(renders)) renders[k] = 0;

  const active = new Promise<void>((resolve) => {
    const off = session.store.subscribe((s) => s.phase === 'active' && (off(), resolve()));
  });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Start call' }));
    await active;
  });
  await act(async () => session.transport.emitTrack('video', fakeVideoTrack()));

  expect(connection).toEqual(['connecting', 'connected']); // the room really went through its steps
  // The frame: once for the click (creating) and once for active. The conversation, the chat and the controls appear
  // with the call (there is no empty box before it), each rendered once: they come in their own chunk (fetched before
  // the click), and render in the same pass as the phase that shows them (no commit more for their arrival); a phase
  // change of the frame does not re-render them.
  expect(renders.AvatarWidgetView).toBe(2);
  expect(renders.TranscriptPanel).toBe(1);
  expect(renders.ChatInput).toBe(1);
  expect(renders.CallControls).toBe(1);
  // The stage: creating, active, the first video track. Not for the create answer (session id, transport, image):
  // nothing it shows changes then, and the session's image is not a poster during a fast connect.
  expect(renders.AvatarStage).toBe(3);
  // The click (creating), active, the first video track: one commit each.
  expect(commits).toBeLessThanOrEqual(3);
  await act(async () => session.end());
});
