/**
 * The standalone `<liveai-avatar>` script (one `<script type="module">` tag, no bundler): the element with BOTH
 * transports registered, so it joins LiveKit and Daily rooms with no configuration. Each SDK is a separate file
 * next to the script, downloaded only when a room of its kind is joined.
 */
import { registerTransport } from '../core/index';
import { livekitTransport } from '../core/transports/livekit';
import { dailyTransport } from '../core/transports/daily';

registerTransport(livekitTransport, dailyTransport);

export * from './index';
