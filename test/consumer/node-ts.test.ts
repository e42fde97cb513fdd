import { describe, expect, it } from 'vitest';
import { requireApp, run } from './helpers';

/** A Node server project as users write them: strict TypeScript with module/moduleResolution nodenext, and CommonJS. */
describe('TypeScript nodenext server and CommonJS (installed tarball)', () => {
  const dir = requireApp('node-ts');

  it('typechecks against every entry with strict nodenext settings (skipLibCheck off), and the options are typed', async () => {
    const r = await run('node_modules/.bin/tsc', ['-p', '.'], { cwd: dir });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it("require('liveai-kit'), require('liveai-kit/schemas') and require('liveai-kit/server') work from CommonJS", async () => {
    const r = await run(process.execPath, ['cjs.cjs'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      createAvatarSession: 'function',
      LiveAiError: 'function',
      DEFAULT_RECONNECT_POLICY: 'object',
      AvatarEventSchema: 'object',
      createAvatarHandler: 'function',
    });
  });
});

describe('liveai-kit/server with no optional package installed', () => {
  const dir = requireApp('server-bare');
  const script = (body: string) => run(process.execPath, ['--input-type=module', '-e', body], { cwd: dir });
  const base = "{ upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }, sessionSecret: 'a-session-secret-of-at-least-32-bytes!!' }";

  it('the project is isolated: nothing optional resolves from it', async () => {
    const r = await script(
      `for (const p of ['express', 'multer', 'express-rate-limit', 'livekit-server-sdk']) { try { import.meta.resolve(p); console.log('found ' + p); } catch {} }`,
    );
    expect(r.stdout).toBe('');
  });

  it('imports, and createAvatarProxy throws ONE missing_peer listing every package its options need, with the install command', async () => {
    const r = await script(`
      import { createAvatarProxy } from 'liveai-kit/server';
      try { createAvatarProxy({ ...${base}, livekit: { url: 'ws://x', apiKey: 'k', apiSecret: 's' } }); console.log('created'); }
      catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, detail: e.detail })); }`);
    expect(r.stderr).toBe('');
    const e = JSON.parse(r.stdout);
    expect(e).toMatchObject({ name: 'LiveAiError', code: 'missing_peer' });
    expect(e.detail).toContain('npm install express multer express-rate-limit livekit-server-sdk');
  });

  it('createAvatarHandler needs nothing optional; with `livekit` it names livekit-server-sdk at creation, not as a later 500', async () => {
    const r = await script(`
      import { createAvatarHandler } from 'liveai-kit/server';
      const h = createAvatarHandler(${base});
      const res = await h(new Request('http://app.test/sessions/abc'), { remoteAddress: '127.0.0.1' });
      let missing;
      try { createAvatarHandler({ ...${base}, livekit: { url: 'ws://x', apiKey: 'k', apiSecret: 's' } }); } catch (e) { missing = { code: e.code, detail: e.detail }; }
      console.log(JSON.stringify({ status: res.status, body: await res.json(), missing }));`);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.status).toBe(401);
    expect(out.body.detail).toEqual(expect.any(String));
    expect(out.missing.code).toBe('missing_peer');
    expect(out.missing.detail).toMatch(/livekit-server-sdk.*npm install livekit-server-sdk$/);
  });
});
