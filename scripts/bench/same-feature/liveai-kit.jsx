// Same-feature page, liveai-kit: the avatar's video and audio, the transcript, chat and an End button, through the
// proxy. What a React app writes with the drop-in widget (the built package, as users import it).
import '../../../dist/livekit.js';
// The stylesheets of the components it shows, as docs/components.md says: counted in the page's first load.
import '../../../dist/styles/base.css';
import '../../../dist/styles/widget.css';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../dist/widget.js'; // liveai-kit/widget, as the README shows

createRoot(document.getElementById('root')).render(<AvatarWidget proxyUrl="/api/avatar" agentId="agent-demo" variant="inline" />);
