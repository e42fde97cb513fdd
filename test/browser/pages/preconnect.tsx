// Test page (issue 40.1): the captions page (the drop-in widget attached to a LiveKit Agents room) with the byte
// streams livekit-client opens recorded first (preconnect-probe.ts).
import './preconnect-probe';
import './captions';
