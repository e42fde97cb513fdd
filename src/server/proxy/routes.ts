import { LiveAiError } from '../../core/index';
import type { ProxyAction } from '../options';

/**
 * A matched route: a session action (with the decoded `:id`), `GET /transport` (the transport hint), or the probes
 * of load balancers `GET /health` and `GET /ready`.
 */
export type Route =
  | { action: ProxyAction; sessionId?: string }
  | { action: 'transportHint'; sessionId?: undefined }
  | { action: 'health'; sessionId?: undefined }
  | { action: 'ready'; sessionId?: undefined };

/**
 * The proxy's route table, on a path relative to the mount point: the route, or undefined when none matches.
 * `anyCase`: the fixed parts of the path match in any letter case (as Express routes do).
 * @throws LiveAiError `invalid_request` (400) for an id that is not valid percent-encoding.
 */
export function matchRoute(method: string, path: string, anyCase = false): Route | undefined {
  const parts = path.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const [a0, rawId, c0, ...rest] = parts;
  const a = anyCase ? a0?.toLowerCase() : a0;
  const c = anyCase ? c0?.toLowerCase() : c0;
  if (a === 'transport' && rawId === undefined) return method === 'GET' || method === 'HEAD' ? { action: 'transportHint' } : undefined;
  if ((a === 'health' || a === 'ready') && rawId === undefined) return method === 'GET' || method === 'HEAD' ? { action: a } : undefined;
  if (a === 'usage' && rawId === undefined) return method === 'GET' ? { action: 'usage' } : undefined;
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
