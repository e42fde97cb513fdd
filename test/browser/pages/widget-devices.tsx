// Test page (issue 27): the inline widget with the pre-join step against the real proxy (`{"room": agentId}`) or
// attached to a room the test created (`{"attach": ClientSession}`, behind the impaired link). The hash is JSON;
// `lang: "ar"` shows it in Arabic, `theme` picks light or dark. window.__devices records what the tests read.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import { ar } from '../../../src/components/i18n/translations';
import type { AvatarSession, AvatarSessionOptions } from '../../../src/core';

export interface DevicesProbe {
  phases: string[];
  /** Every microphone track a getUserMedia call on the page opened (the pre-join preview and the call's own). */
  tracks: MediaStreamTrack[];
  session: AvatarSession | null;
}
const probe: DevicesProbe = { phases: [], tracks: [], session: null };
(window as unknown as { __devices: DevicesProbe }).__devices = probe;

const media = navigator.mediaDevices;
const open = media.getUserMedia.bind(media);
media.getUserMedia = async (constraints) => {
  const stream = await open(constraints);
  probe.tracks.push(...stream.getAudioTracks());
  return stream;
};

const hash = JSON.parse(decodeURIComponent(location.hash.slice(1) || '{}')) as {
  attach?: object;
  room?: string;
  lang?: string;
  theme?: 'light' | 'dark';
};
const options: Partial<AvatarSessionOptions> = {
  transport: 'rtc-a',
  ...(hash.attach ? { flow: { kind: 'attach', session: hash.attach } as AvatarSessionOptions['flow'] } : {}),
};

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId={hash.room ?? 'agent-demo'}
    options={options}
    variant="inline"
    preJoin
    title="Ada"
    theme={hash.theme ?? 'light'}
    messages={hash.lang === 'ar' ? ar : undefined}
    onSession={(s) => void (probe.session = s)}
    onPhaseChange={(p) => void probe.phases.push(p)}
  />,
);
