/**
 * What the widget shows only once a call runs: the call controls, the chat field, the connection hint, "Stop
 * talking", the transcript and captions. One chunk,
 * fetched when Start comes into view or is pointed at (with what `start()` downloads) and at the latest on the click,
 * so a page that shows the widget but never calls does not download it.
 */
export { CallControls } from './CallControls';
export { ChatInput } from '../controls/ChatInput';
export { ConnectionHint } from './ConnectionHint';
export { StopTalking } from './StopTalking';
export { TranscriptPanel } from '../transcript/TranscriptPanel';
