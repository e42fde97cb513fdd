import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LiveAiError } from '../../src/core/index';
import { dailyRoomAllowed } from '../../src/server/session/daily-rooms';

/**
 * Issue 36 item 3: a room URL is admitted only when every parser reads it alike. The second parser here is the
 * generic split of RFC 3986 (appendix B), which is what Python's `urllib.parse.urlsplit` and most server-side
 * parsers do: authority up to the first `/`, `?` or `#`, no backslash or dot-segment handling.
 */
const POLICY = ['acme.daily.co', 'https://rooms.daily.co/live-show'];

function rfc3986(url: string) {
  const m = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/.exec(url)!;
  return { scheme: m[2], authority: m[4], path: m[5] ?? '' };
}

/** What a second parser must see in an admitted URL: a listed host, or the listed room, and a plain path. */
function readsAsAllowed(url: string): boolean {
  const { scheme, authority, path } = rfc3986(url);
  if (scheme !== 'https' || authority === undefined) return false;
  const segments = path.split('/');
  const plainPath =
    !path.includes('\\') &&
    !/%(2f|5c|2e|00)/i.test(path) &&
    !segments.some((s) => s === '.' || s === '..') &&
    !/[\s\u0000-\u001f]/.test(url);
  if (!plainPath) return false;
  return authority === 'acme.daily.co' || (authority === 'rooms.daily.co' && path.replace(/\/+$/, '') === '/live-show');
}

const scheme = fc.constantFrom('https://', 'HTTPS://', 'https:', 'https:/', 'https:\\\\', 'http://', 'https:///');
const userinfo = fc.constantFrom('', '', '', 'user@', 'acme.daily.co@', ':@', 'u:p@', '@');
const host = fc.constantFrom(
  'acme.daily.co',
  'rooms.daily.co',
  'ACME.daily.co',
  'evil.test',
  'acme.daily.co.',
  'acme.daily.co.evil.test',
  'acmé.daily.co',
  'acme%2edaily.co',
);
const port = fc.constantFrom('', '', ':443', ':8443', ':');
const joint = fc.constantFrom(
  '/',
  '/',
  '\\',
  '\\@evil.test/',
  '@evil.test/',
  '%2F',
  '%5C',
  '/./',
  '/../',
  '/%2e%2e/',
  '//',
  '\t/',
  ' /',
  '?/',
  '#/',
);
const segment = fc.constantFrom(
  'live-show',
  'other-room',
  'r1',
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '.%2e',
  'a%2fb',
  'a%5Cb',
  '',
  '@evil.test',
  '\\',
  ';x',
  'x y',
  '\u0000',
  'LIVE-SHOW',
);
const suffix = fc.constantFrom('', '', '?t=1', '#f', '?a=../', '/', '//', '?x=%2F');
const trickyUrl = fc
  .tuple(scheme, userinfo, host, port, joint, fc.array(segment, { maxLength: 4 }), suffix)
  .map(([s, u, h, p, j, segs, q]) => `${s}${u}${h}${p}${j}${segs.join('/')}${q}`);

describe('dailyRooms: a room URL every parser reads alike', () => {
  it('admits a URL only when an RFC 3986 parser reads the same allowed host and room; else 400 or false', async () => {
    await fc.assert(
      fc.asyncProperty(trickyUrl, async (url) => {
        let allowed: boolean;
        try {
          allowed = await dailyRoomAllowed(POLICY, url, undefined);
        } catch (e) {
          expect(e).toBeInstanceOf(LiveAiError);
          expect((e as LiveAiError).status).toBe(400);
          expect((e as LiveAiError).message).toMatch(/rtc_b_url must be a room URL in normal form/);
          return;
        }
        if (allowed) {
          expect(readsAsAllowed(url), url).toBe(true);
          expect(new URL(url).href).toBe(url);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the issue’s URLs: userinfo after a backslash and dot segments get 400; plain ones pass', async () => {
    const refused = [
      'https://acme.daily.co\\@evil.test/r1',
      'https://rooms.daily.co/other-room/../live-show',
      'https://rooms.daily.co/other-room/%2e%2e/live-show',
      'https://rooms.daily.co/other-room%2f..%2flive-show',
      'https://evil.test@acme.daily.co/r1',
      'https://ACME.daily.co/r1',
      ' https://acme.daily.co/r1',
    ];
    for (const url of refused) await expect(dailyRoomAllowed(POLICY, url, undefined), url).rejects.toMatchObject({ status: 400 });
    expect(await dailyRoomAllowed(POLICY, 'https://acme.daily.co/r1', undefined)).toBe(true);
    expect(await dailyRoomAllowed(POLICY, 'https://rooms.daily.co/live-show/', undefined)).toBe(true);
    expect(await dailyRoomAllowed(POLICY, 'https://rooms.daily.co/other-room', undefined)).toBe(false);
    // A function policy sees only URLs in normal form.
    const seen: string[] = [];
    const fn = (u: string) => (seen.push(u), true);
    await expect(dailyRoomAllowed(fn, 'https://acme.daily.co\\@evil.test/r1', undefined)).rejects.toMatchObject({ status: 400 });
    expect(await dailyRoomAllowed(fn, 'https://acme.daily.co/r1', undefined)).toBe(true);
    expect(seen).toEqual(['https://acme.daily.co/r1']);
  });
});
