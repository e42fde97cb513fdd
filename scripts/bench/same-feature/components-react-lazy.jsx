// Same-feature page, @livekit/components-react with code splitting: the page the components-react docs' app would
// be once its author splits the call off with React.lazy. First load is React and a Start button; the call part
// (components-react-call.jsx: LiveKitRoom, VideoTrack, RoomAudioRenderer, useDataChannel, with livekit-client) loads
// on Start, while the create call is in flight. The fair twin of our pages, which load the transport on start too.
import { mountLazyCall } from './lazy-app.jsx';

mountLazyCall(() => import('./components-react-call.jsx'));
