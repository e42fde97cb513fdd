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
// The product leaves pre-connect audio off by default; this page turns it on (read by captions.tsx).
(window as unknown as { __preConnectAudio: boolean }).__preConnectAudio = true;

const original = LocalParticipant.prototype.streamBytes;
LocalParticipant.prototype.streamBytes = function (this: LocalParticipant, options) {
  sent.push({ topic: options?.topic ?? '', to: options?.destinationIdentities ?? [], mimeType: options?.mimeType });
  return original.call(this, options);
};
