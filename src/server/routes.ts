import { LiveAiError } from '../core/errors';
import type { ProxyAction } from './options';

/**
 * The proxy's route table, on a path relative to the mount point: the action and the decoded `:id`, or undefined
 * when no route matches. `anyCase`: the fixed parts of the path match in any letter case (as Express routes do).
 * @throws LiveAiError `invalid_request` (400) for an id that is not valid percent-encoding.
 */
export function matchRoute(method: string, path: string, anyCase = false): { action: ProxyAction; sessionId?: string } | undefined {
  const parts = path.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const [a0, rawId, c0, ...rest] = parts;
  const a = anyCase ? a0?.toLowerCase() : a0;
  const c = anyCase ? c0?.toLowerCase() : c0;
  if (rest.length > 0 || (a !== 'sessions' && a !== 'rooms')) return undefined;
  if (rawId === undefined) {
    if (method === 'POST') return { action: a === 'rooms' ? 'createRoom' : 'createSession' };
    if (method === 'GET') return { action: a === 'rooms' ? 'listRooms' : 'listSessions' };
    return undefined;
  }
  if (a !== 'sessions' || rawId === '') return undefined;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(rawId);
  } catch {
    throw new LiveAiError('invalid_request', 'Malformed URL', { status: 400 });
  }
  if (c === undefined) return method === 'GET' ? { action: 'getSession', sessionId } : undefined;
  const action =
    c === 'control' ? 'control' : c === 'leave-meeting' ? 'leaveMeeting' : c === 'end' ? 'end' : c === 'token' ? 'renewToken' : undefined;
  return method === 'POST' && action ? { action, sessionId } : undefined;
}
