export { parseAvatarEventMessage, type ParsedMessage } from './read';
