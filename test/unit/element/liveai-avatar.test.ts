import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineLiveAiAvatar, type LiveAiAvatarElement } from '../../../src/element';
import { createFakeProxy, FakeTransport, fakeTransportLoader, type FakeProxy } from '../../../src/testing';

function make(attrs: Record<string, string>, proxy: FakeProxy = createFakeProxy(), transport = new FakeTransport()) {
  const el = document.createElement('liveai-avatar') as LiveAiAvatarElement;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.options = { fetch: proxy.fetch, loadTransport: fakeTransportLoader(transport), pollIntervalMs: 20, endOnUnload: false };
  document.body.append(el);
  return { el, proxy, transport };
}
const shadow = (el: HTMLElement) => el.shadowRoot!;
const widget = (el: HTMLElement) => shadow(el).querySelector<HTMLElement>('.liveai-widget');
const button = (el: HTMLElement, name: RegExp) =>
  [...shadow(el).querySelectorAll('button')].find((b) => name.test(b.getAttribute('aria-label') ?? b.textContent ?? ''));
/** Makes the fake proxy report ACTIVE for the element's session. */
async function activate(el: LiveAiAvatarElement, proxy: FakeProxy) {
  await waitFor(() => expect(el.phase).toBe('queued'));
  proxy.setStatus(el.sessionId!, 'ACTIVE');
  await waitFor(() => expect(el.phase).toBe('active'));
}

/**
 * Waits on fake time: each check advances the fake clock (polls, deadlines, the element's deferred work), while the
 * real event loop lets promises and lazily imported translations settle.
 */
const waitFor = <T>(check: () => T, options: { timeout?: number } = {}) => vi.waitFor(check, { timeout: 5000, interval: 20, ...options });

/** Awaits `promise` while the fake clock runs (what it waits for may be a timer, e.g. the ending status poll). */
async function ticking<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const out = promise.finally(() => (done = true));
  while (!done) await vi.advanceTimersByTimeAsync(20);
  return out;
}

describe('<liveai-avatar>', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    document.body.replaceChildren();
    vi.useRealTimers();
  });

  it('is registered once; defining again is a guarded no-op', () => {
    expect(customElements.get('liveai-avatar')).toBeDefined();
    expect(defineLiveAiAvatar()).toBe(false);
    expect(defineLiveAiAvatar('my-avatar')).toBe(true);
    expect(document.createElement('my-avatar').shadowRoot).toBeTruthy();
  });

  it('renders the widget in a shadow root with styles, from its attributes', async () => {
    const { el } = make({ 'agent-id': 'agent-1', 'proxy-url': 'http://proxy.fake.test', inline: '', theme: 'dark', 'avatar-title': 'Ada' });
    await waitFor(() => expect(widget(el)).not.toBeNull());
    expect(shadow(el).querySelector('style')).not.toBeNull();
    expect(widget(el)).toHaveAttribute('data-variant', 'inline');
    expect(widget(el)).toHaveAttribute('data-theme', 'dark');
    expect(widget(el)).toHaveAttribute('data-state', 'active');
    el.setAttribute('theme', 'light');
    await waitFor(() => expect(widget(el)).toHaveAttribute('data-theme', 'light'));
  });

  it('without adoptedStyleSheets (jsdom, Safari before 16.4) the inline style carries the nonce attribute (CSP)', async () => {
    expect('adoptedStyleSheets' in ShadowRoot.prototype).toBe(false);
    const holder = document.createElement('div');
    holder.innerHTML = '<liveai-avatar nonce="r4nd0m" agent-id="a" proxy-url="http://proxy.fake.test" inline></liveai-avatar>';
    document.body.append(holder);
    const el = holder.firstElementChild as HTMLElement;
    expect(shadow(el).querySelector('style')?.nonce).toBe('r4nd0m');
  });

  it('transport="rtc-a": hovering Start fetches that transport before any session exists', async () => {
    const proxy = createFakeProxy();
    const loader = fakeTransportLoader(new FakeTransport());
    const el = document.createElement('liveai-avatar') as LiveAiAvatarElement;
    for (const [k, v] of Object.entries({ 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', inline: '', transport: 'rtc-a' }))
      el.setAttribute(k, v);
    el.options = { fetch: proxy.fetch, loadTransport: loader, endOnUnload: false };
    document.body.append(el);
    await waitFor(() => expect(button(el, /Start call/)).toBeDefined());
    button(el, /Start call/)!.focus();
    await waitFor(() => expect(loader.kinds).toContain('rtc-a'));
    expect(proxy.calls).toEqual([]);
  });

  it('lang picks a built-in translation (loaded on demand), messages overrides strings, dir and show-cost apply', async () => {
    const { el } = make({ 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', inline: '', lang: 'es-MX' });
    await waitFor(() => expect(button(el, /^Iniciar llamada$/)).toBeDefined());
    expect(widget(el)).toHaveAttribute('lang', 'es');
    el.messages = { startCall: 'Llamar a Ada' };
    await waitFor(() => expect(button(el, /^Llamar a Ada$/)).toBeDefined());
    el.setAttribute('lang', 'ar');
    await waitFor(() => expect(widget(el)).toHaveAttribute('dir', 'rtl'));
    expect(button(el, /^Llamar a Ada$/)).toBeDefined();
    el.messages = undefined;
    await waitFor(() => expect(button(el, /^ابدأ المكالمة$/)).toBeDefined());
    el.setAttribute('lang', 'pt');
    await waitFor(() => expect(button(el, /^Start call$/)).toBeDefined());
    expect(widget(el)).toHaveAttribute('dir', 'ltr');
    el.setAttribute('dir', 'rtl');
    await waitFor(() => expect(widget(el)).toHaveAttribute('dir', 'rtl'));
  });

  it('visitors see no cost by default; show-cost="true" shows it on the ended screen', async () => {
    for (const shown of [false, true]) {
      const attrs = { 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', inline: '', ...(shown ? { 'show-cost': 'true' } : {}) };
      const { el, proxy } = make(attrs);
      el.start().catch(() => undefined);
      await activate(el, proxy);
      await ticking(el.end());
      await waitFor(() => expect(shadow(el).textContent).toContain('Call ended'));
      if (shown) await waitFor(() => expect(shadow(el).textContent).toContain('1.25 credits'));
      else expect(shadow(el).textContent).not.toMatch(/credit|cost/i);
    }
  });

  it('microphone="false" makes a text-only widget: no microphone toggle or notice, the chat from the start', async () => {
    // jsdom has no microphone: a widget that asks for one finds none and says so.
    expect((navigator as { mediaDevices?: unknown }).mediaDevices).toBeUndefined();
    const call = async (attrs: Record<string, string>) => {
      const { el, proxy } = make({ 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', inline: '', ...attrs });
      await waitFor(() => expect(button(el, /Start call/)).toBeDefined());
      button(el, /Start call/)!.click();
      await activate(el, proxy);
      await waitFor(() => expect(button(el, /^End$/)).toBeDefined());
      return el;
    };
    const voice = await call({});
    expect(button(voice, /^Microphone$/)).toBeDefined();
    expect(shadow(voice).querySelector('[data-kind="mic"]')?.textContent).toMatch(/microphone/i);

    const text = await call({ microphone: 'false' });
    expect(button(text, /^Microphone$/)).toBeUndefined();
    expect(shadow(text).querySelector('[data-kind="mic"]')).toBeNull();
    expect(shadow(text).querySelector('.liveai-chat__field')).not.toBeNull();
    // Turned back on, the toggle comes back in the same call.
    text.setAttribute('microphone', 'true');
    await waitFor(() => expect(button(text, /^Microphone$/)).toBeDefined());

    const errors: { attribute?: string; detail: string }[] = [];
    const { el: bad } = make({ 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', inline: '', microphone: 'off' });
    bad.addEventListener('liveai-error', (e) => errors.push((e as CustomEvent).detail));
    await waitFor(() => expect(errors).toContainEqual(expect.objectContaining({ attribute: 'microphone' })));
    expect(errors[0]!.detail).toContain('microphone="off" is not one of true, false');
  });

  it('initial-state: minimized shows the launcher; hidden renders nothing', async () => {
    const { el } = make({ 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', 'initial-state': 'minimized' });
    await waitFor(() => expect(widget(el)).toHaveAttribute('data-state', 'minimized'));
    expect(widget(el)).toHaveAttribute('data-variant', 'floating');
    const { el: hidden } = make({ 'agent-id': 'a', 'proxy-url': 'http://proxy.fake.test', 'initial-state': 'hidden' });
    await waitFor(() => expect(hidden.isMicOn()).toBe(false));
    expect(widget(hidden)).toBeNull();
  });

  it('start(), events, sendMessage, transcript, mic and mute truth, end()', async () => {
    const { el, proxy, transport } = make({ 'agent-id': 'agent-1', 'proxy-url': 'http://proxy.fake.test' });
    const events: { type: string; detail: unknown }[] = [];
    for (const t of ['liveai-phase', 'liveai-transcript', 'liveai-error', 'liveai-image-change', 'liveai-ended']) {
      document.addEventListener(t, (e) => events.push({ type: e.type, detail: (e as CustomEvent).detail }));
    }
    expect(el.phase).toBe('idle');
    const started = el.start();
    await activate(el, proxy);
    await ticking(started);
    expect(widget(el)).toHaveAttribute('data-state', 'active');
    expect(events.filter((e) => e.type === 'liveai-phase').map((e) => (e.detail as { phase: string }).phase)).toEqual([
      'creating',
      'queued',
      'active',
    ]);

    await el.sendMessage('Hello');
    expect(transport.sentMessages).toContainEqual(expect.objectContaining({ event: 'chat-msg', message: 'Hello' }));
    transport.emitEvent({ type: 'agent_transcription', transcription: 'Hi, nice to meet you' });
    expect(el.transcript.map((l) => l.text)).toEqual(['Hi, nice to meet you']);
    expect(events).toContainEqual({
      type: 'liveai-transcript',
      detail: expect.objectContaining({ role: 'agent', text: 'Hi, nice to meet you' }),
    });
    transport.emitEvent({ type: 'image_change_requested' });
    expect(events).toContainEqual({ type: 'liveai-image-change', detail: { status: 'requested' } });

    expect(el.isMicOn()).toBe(false);
    await el.micOn();
    expect(el.isMicOn()).toBe(true);
    expect(transport.micEnabled).toBe(true);
    await el.micOff();
    expect(el.isMicOn()).toBe(false);
    el.mute();
    expect(el.isMuted()).toBe(true);
    button(el, /More options/)!.click(); // the speaker is one of the less used controls
    await waitFor(() => expect(button(el, /Mute speaker/)).toHaveAttribute('aria-pressed', 'true'));
    el.unmute();
    expect(el.isMuted()).toBe(false);

    await ticking(el.end());
    expect(el.phase).toBe('ended');
    expect(events).toContainEqual({ type: 'liveai-ended', detail: { error: null, reason: 'user', cost: 1.25, sessionId: el.sessionId } });
  });

  it('reports errors as liveai-error events with code and detail (and the code and detail on the console)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const proxy = createFakeProxy({ agents: ['someone-else'] });
    const { el } = make({ 'agent-id': 'missing', 'proxy-url': 'http://proxy.fake.test' }, proxy);
    const errors: { code: string; detail: string }[] = [];
    el.addEventListener('liveai-error', (e) => errors.push((e as CustomEvent).detail));
    await expect(el.start()).rejects.toMatchObject({ code: 'not_found' });
    expect(errors[0]).toMatchObject({ code: 'not_found', detail: 'Agent not found' });
    expect(el.phase).toBe('error');
    await waitFor(() => expect(warn).toHaveBeenCalledWith('liveai-kit: not_found: Agent not found'));
    warn.mockRestore();
  });

  it('start() without agent-id or proxy-url rejects with a clear error (and says on the console what is missing)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { el } = make({ 'proxy-url': 'http://proxy.fake.test' });
    await expect(el.start()).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('agent-id') });
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringMatching(/renders nothing: give it agentId/)));
    warn.mockRestore();
  });

  it('two elements on one page are independent', async () => {
    const proxy = createFakeProxy();
    const a = make({ 'agent-id': 'agent-a', 'proxy-url': 'http://proxy.fake.test', inline: '' }, proxy);
    const b = make({ 'agent-id': 'agent-b', 'proxy-url': 'http://proxy.fake.test', inline: '' }, proxy);
    const started = a.el.start();
    await activate(a.el, proxy);
    await ticking(started);
    await a.el.micOn();
    expect(b.el.phase).toBe('idle');
    expect(b.el.isMicOn()).toBe(false);
    expect(b.transport.connectCalls).toHaveLength(0);
    expect(a.el.sessionId).not.toBeNull();
    expect(b.el.sessionId).toBeNull();
  });
});
