#!/usr/bin/env node
// The host-side browser of the first-run test: Debian Chromium opens the URL that `npm run dev` printed, exactly
// as a person would (the Storybook page, its "Live" story), presses "Start call" and waits for the avatar's video.
// Prints one JSON line: the URL's HTTP status, inbound video stats, every ICE candidate the page was given by LiveKit with the route this
// side would take to it (`ip route get`), this side's default route, and the screenshot's path; also what this side
// gets from the local service's forwarded port (the session image, fault injection), the favicon, and every answer
// of 400 or more the page saw.
// Usage: node test/first-run/host-browser.mjs <printed url> <out.png>
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

const [url, out] = process.argv.slice(2);
const ARGS = CHROMIUM_ARGS;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
const result = {
  namespaceOnlyRoute: '',
  status: 0,
  framesDecoded: 0,
  frameWidth: 0,
  candidates: [],
  defaultRoute: '',
  screenshot: out,
  error: null,
  image: 0,
  faults: 0,
  favicon: 0,
  failedAnswers: [],
};
const SERVICE = 'http://127.0.0.1:4010';
try {
  result.status = (await fetch(url)).status;
  result.image = (await fetch(`${SERVICE}/liveai/assets/agent-demo.png`)).status;
  result.faults = (
    await fetch(`${SERVICE}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  ).status;
  result.favicon = (await fetch(new URL('/favicon.ico', url))).status;
  const context = await browser.newContext({ viewport: { width: 1100, height: 860 } });
  await context.grantPermissions(['camera', 'microphone']);
  // Every peer connection, and every remote ICE candidate it is handed (in the SDP or trickled).
  await context.addInitScript(() => {
    const w = window;
    w.__pcs = [];
    w.__remote = [];
    const Orig = w.RTCPeerConnection;
    const note = (line) => line && w.__remote.push(String(line).replace(/^a=/, ''));
    w.RTCPeerConnection = class extends Orig {
      constructor(config) {
        super(config);
        w.__pcs.push(this);
      }
      setRemoteDescription(desc) {
        for (const l of String(desc?.sdp ?? '').split(/\r?\n/)) if (l.startsWith('a=candidate:')) note(l);
        return super.setRemoteDescription(desc);
      }
      addIceCandidate(c) {
        note(c?.candidate);
        return super.addIceCandidate(c);
      }
    };
  });
  const page = await context.newPage();
  page.on('response', (r) => r.status() >= 400 && result.failedAnswers.push(`${r.status()} ${r.url()}`));
  page.on('console', (m) => m.type() === 'error' && console.error(`[page] ${m.text()}`));
  await page.goto(url);
  const story = page.frameLocator('#storybook-preview-iframe');
  await story.getByRole('button', { name: 'Start call' }).click({ timeout: 120_000 });
  const frame = () => page.frames().find((f) => f.url().includes('iframe.html'));
  const stats = () =>
    frame().evaluate(async () => {
      let framesDecoded = 0;
      let frameWidth = 0;
      const remote = [];
      for (const pc of window.__pcs) {
        if (pc.connectionState === 'closed') continue;
        (await pc.getStats()).forEach((s) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') {
            framesDecoded += Number(s.framesDecoded ?? 0);
            frameWidth = Math.max(frameWidth, Number(s.frameWidth ?? 0));
          }
          if (s.type === 'remote-candidate') remote.push(`${s.address ?? s.ip} ${s.port} ${s.protocol} typ ${s.candidateType}`);
        });
      }
      return { framesDecoded, frameWidth, remote, given: window.__remote };
    });
  // Poll the stats until video frames are decoded: the event we wait for (bounded by the caller's timeout).
  let s = await stats();
  while (s.framesDecoded < 25) {
    await new Promise((r) => setTimeout(r, 250));
    s = await stats();
  }
  await page.screenshot({ path: out });
  result.framesDecoded = s.framesDecoded;
  result.frameWidth = s.frameWidth;
  const addrs = new Set();
  for (const c of [...s.given, ...s.remote]) {
    const m = /^candidate:\S+ \d+ \S+ \d+ (\S+) \d+/.exec(c) ?? /^(\S+) \d+ /.exec(c);
    if (m) addrs.add(m[1]);
  }
  for (const a of addrs) {
    let route;
    try {
      route = execFileSync('ip', ['route', 'get', a], { encoding: 'utf8' }).trim();
    } catch (e) {
      route = `unreachable: ${String(e.stderr ?? e.message).trim()}`;
    }
    result.candidates.push({ address: a, route, lines: [...s.given, ...s.remote].filter((c) => c.includes(` ${a} `)) });
  }
  result.defaultRoute = execFileSync('ip', ['route', 'show', 'default'], { encoding: 'utf8' }).trim();
  // Where an address that exists only inside a namespace (the test namespaces' veth) would go from here.
  result.namespaceOnlyRoute = execFileSync('ip', ['route', 'get', '10.203.0.1'], { encoding: 'utf8' }).trim();
} catch (e) {
  result.error = e.message;
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
