// Test page (issue 40.4): a session with no UI of its own (the session plays the avatar's audio through an element
// it owns, not in the document). window.__audio records what the test reads: the session, the phases it went
// through, and the audio elements the session made.
import '../../../src/core/transports/livekit';
import { createAvatarSession, type AvatarSession } from '../../../src/core';

export interface AudioProbe {
  session: AvatarSession;
  phases: string[];
  elements: HTMLAudioElement[];
}
const elements: HTMLAudioElement[] = [];
const create = document.createElement.bind(document);
document.createElement = ((tag: string, options?: ElementCreationOptions) => {
  const el = create(tag, options);
  if (el instanceof HTMLAudioElement) elements.push(el);
  return el;
}) as typeof document.createElement;

const session = createAvatarSession({ proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' }, transport: 'rtc-a' });
const probe: AudioProbe = { session, phases: [], elements };
(window as unknown as { __audio: AudioProbe }).__audio = probe;
session.store.subscribe((st) => {
  if (probe.phases.at(-1) !== st.phase) probe.phases.push(st.phase);
  document.getElementById('phase')!.textContent = st.phase;
});
document.getElementById('call')!.addEventListener('click', () => void session.start());
