import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../src/element';
import type { LiveAiAvatarElement, LiveAiAvatarEventMap } from '../../../src/element';
import { createFakeProxy, FakeTransport, fakeTransportLoader } from '../../../src/testing';

/**
 * The event tables of docs/components.md and docs/reference.md against what `<liveai-avatar>` really dispatches
 * (issue 39.6: the docs had `liveai-transcript` as `{line}` and `liveai-ended` as `{reason, status, cost}`): every
 * documented key must be in the detail, every key of the detail documented, and `key?` marks exactly the keys that
 * only some of the events carry.
 */
const ROOT = join(import.meta.dirname, '../../..');
const EVENTS: (keyof LiveAiAvatarEventMap)[] = ['liveai-phase', 'liveai-transcript', 'liveai-error', 'liveai-image-change', 'liveai-ended'];

/** `| \`liveai-x\` | \`{a, b, c?}\`…` rows of a doc: event → {required, optional} keys. */
function documented(doc: string): Map<string, { required: string[]; optional: string[] }> {
  const rows = new Map<string, { required: string[]; optional: string[] }>();
  for (const m of readFileSync(join(ROOT, doc), 'utf8').matchAll(/^\| `(liveai-[a-z-]+)` \| `\{([^}]*)\}`/gm)) {
    const keys = m[2]!.split(',').map((k) => k.trim());
    rows.set(m[1]!, {
      required: keys.filter((k) => !k.endsWith('?')).sort(),
      optional: keys
        .filter((k) => k.endsWith('?'))
        .map((k) => k.slice(0, -1))
        .sort(),
    });
  }
  return rows;
}

const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 5000, interval: 20 });
async function ticking<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const out = promise.finally(() => (done = true));
  while (!done) await vi.advanceTimersByTimeAsync(20);
  return out;
}

/** Plays what makes the element dispatch each event (an invalid attribute, a call, an image change, its end, a failed start). */
async function observe(): Promise<Map<string, object[]>> {
  const seen = new Map<string, object[]>();
  const listeners = EVENTS.map((type) => {
    const fn = (e: Event) => seen.set(type, [...(seen.get(type) ?? []), (e as CustomEvent<object>).detail]);
    document.addEventListener(type, fn);
    return () => document.removeEventListener(type, fn);
  });
  const proxy = createFakeProxy();
  const transport = new FakeTransport();
  const el = document.createElement('liveai-avatar') as LiveAiAvatarElement;
  for (const [k, v] of Object.entries({ 'agent-id': 'agent-1', 'proxy-url': 'http://proxy.fake.test', theme: 'purple' }))
    el.setAttribute(k, v);
  el.options = { fetch: proxy.fetch, loadTransport: fakeTransportLoader(transport), pollIntervalMs: 20, endOnUnload: false };
  document.body.append(el);
  await waitFor(() => expect(seen.get('liveai-error')).toHaveLength(1));

  const started = el.start();
  await waitFor(() => expect(el.phase).toBe('queued'));
  proxy.setStatus(el.sessionId!, 'ACTIVE');
  await ticking(started);
  transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello there' });
  transport.emitEvent({ type: 'image_change_requested' });
  transport.emitEvent({ type: 'image_change_error', error: 'could not download the image' });
  await ticking(el.end());

  // A session error (no attribute): an agent the proxy does not know.
  const other = document.createElement('liveai-avatar') as LiveAiAvatarElement;
  for (const [k, v] of Object.entries({ 'agent-id': 'missing', 'proxy-url': 'http://proxy.fake.test' })) other.setAttribute(k, v);
  other.options = {
    fetch: createFakeProxy({ agents: ['someone-else'] }).fetch,
    loadTransport: fakeTransportLoader(new FakeTransport()),
    endOnUnload: false,
  };
  // The widget shows the visitor a sentence and gives the developer the code and detail on the console: expected here.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  document.body.append(other);
  await ticking(other.start().catch(() => undefined));
  await waitFor(() => expect(warn).toHaveBeenCalledWith('liveai-kit: not_found: Agent not found'));
  warn.mockRestore();
  for (const off of listeners) off();
  return seen;
}

describe('the documented <liveai-avatar> events are the dispatched ones', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    document.body.replaceChildren();
    vi.useRealTimers();
  });

  it('docs/components.md and docs/reference.md list every event with the keys of its detail', async () => {
    const seen = await observe();
    const observed = new Map(
      EVENTS.map((type) => {
        const details = seen.get(type) ?? [];
        expect(details.length, `${type} was dispatched`).toBeGreaterThan(0);
        const keysOf = details.map((d) => Object.keys(d));
        const all = [...new Set(keysOf.flat())].sort();
        const always = all.filter((k) => keysOf.every((ks) => ks.includes(k)));
        return [type, { required: always, optional: all.filter((k) => !always.includes(k)) }];
      }),
    );
    for (const doc of ['docs/components.md', 'docs/reference.md']) {
      const rows = documented(doc);
      expect([...rows.keys()].sort(), doc).toEqual([...EVENTS].sort());
      for (const type of EVENTS) expect(rows.get(type), `${doc}: ${type}`).toEqual(observed.get(type));
    }
  });
});
