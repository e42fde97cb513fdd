// Same-feature page, hand-written with React and livekit-client only (no component library): the avatar's video
// and audio, the transcript (the service's events on the `liveai` data topic), chat (the `chat-msg` app message on
// the same topic) and an End button, through the same proxy. The call part (react-livekit-call.jsx, with
// livekit-client) is split off with React.lazy and loads on Start, like the code-split components-react page.
// The floor of what the feature set costs in a React app.
import { mountLazyCall } from './lazy-app.jsx';

mountLazyCall(() => import('./react-livekit-call.jsx'));
