// Test page (issue 25): the drop-in widget whose call the page starts by itself once loaded, with no user gesture
// (as a host page calling `start()` on load would). It reports on the console, which a test reads without touching
// the page: over WebDriver BiDi every script a test runs in the page counts as a user activation, and one would
// lift the browser's autoplay block. Lines: `liveai-autoplay phase <p>`, `… blocked <true|false>`, `… playing`.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import '../../../src/components/styles/index.css';

const say = (line: string) => console.log(`liveai-autoplay ${line}`);
// The engine's audio element is not in the document: hear about it when it plays.
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
  if (this instanceof HTMLAudioElement && !this.dataset.watched) {
    this.dataset.watched = '1';
    this.addEventListener('playing', () => this.srcObject && say('playing'));
  }
  return play.call(this);
};

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    title="Demo avatar"
    onSession={(s) => {
      let blocked: boolean | null = null;
      s.store.subscribe((st) => {
        if (st.media.audioBlocked !== blocked) say(`blocked ${(blocked = st.media.audioBlocked)}`);
      });
      setTimeout(() => void s.start(), 0);
    }}
    onPhaseChange={(p) => say(`phase ${p}`)}
  />,
);
