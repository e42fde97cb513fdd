// Test instrument (issue 40.1): records every byte stream the page's livekit-client opens (its topic and destination
// identities) on `window.__byteStreams`, so a test sees to whom livekit-client sent the pre-connect audio buffer.
// Imported before the page itself. Test-only: the product never patches livekit-client.
import { LocalParticipant } from 'livekit-client';

/** One byte stream the page opened. */
export interface ByteStreamRecord {
  topic: string;
  to: string[];
  mimeType?: string;
}
const sent: ByteStreamRecord[] = [];
(window as unknown as { __byteStreams: ByteStreamRecord[] }).__byteStreams = sent;
// This page keeps pre-connect audio at the product's default (read by captions.tsx, whose own pages turn it off).
(window as unknown as { __preConnectAudio: 'default' }).__preConnectAudio = 'default';

const original = LocalParticipant.prototype.streamBytes;
LocalParticipant.prototype.streamBytes = function (this: LocalParticipant, options) {
  sent.push({ topic: options?.topic ?? '', to: options?.destinationIdentities ?? [], mimeType: options?.mimeType });
  return original.call(this, options);
};

// What the widget's waiting line said while the avatar was coming (each text once, in order).
const waitingLines: string[] = [];
(window as unknown as { __waitingLines: string[] }).__waitingLines = waitingLines;
new MutationObserver(() => {
  const line = document.querySelector('[data-kind="waiting"]')?.textContent ?? '';
  if (line && waitingLines.at(-1) !== line) waitingLines.push(line);
}).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
