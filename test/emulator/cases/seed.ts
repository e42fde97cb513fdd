import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect } from 'vitest';
import { createEmulator } from '../../../src/emulator/index';
import { ALICE } from '../helpers';
import { type Case } from './types';

export const seedCases: Case[] = [
  {
    name: 'seed: built-in seed: alice (2 agents, 100 credits), bob, broke (0 credits)',
    run: async ({ h }) => {
      const { body } = await request(h.url).get('/__emulator/accounts');
      expect(body.accounts.map((a: { api_key: string }) => a.api_key)).toEqual([ALICE, 'dev-key-bob', 'dev-key-broke']);
      expect(body.accounts[0].agents).toEqual(['agent-demo', 'agent-cartoon']);
      expect(body.accounts[2].credits).toBe(0);
    },
  },
  {
    name: 'fields: a seed file path is loaded; image_url may be absolute or relative to the base URL',
    run: async ({ fresh }) => {
      const dir = mkdtempSync(join(tmpdir(), 'liveai-seed-'));
      const file = join(dir, 'seed.json');
      const agents = [
        { agent_id: 'rel', image_url: '/liveai/assets/rel.png' },
        { agent_id: 'abs', image_url: 'https://cdn.example.test/abs.png' },
      ];
      try {
        writeFileSync(file, JSON.stringify({ accounts: [{ api_key: 'k1', credits: 5, agents }] }));
        const h = await fresh({ seed: file });
        const rel = await h.post('/liveai/rooms', { agent_id: 'rel' }, 'k1');
        expect(rel.body.image_url).toBe(`${h.url}/liveai/assets/rel.png`);
        expect((await request(h.url).get('/liveai/assets/rel.png')).status).toBe(200);
        expect((await h.post('/liveai/rooms', { agent_id: 'abs' }, 'k1')).body.image_url).toBe('https://cdn.example.test/abs.png');
      } finally {
        rmSync(dir, { recursive: true, force: true }); // nothing left in the temp folder
      }
    },
  },
  {
    name: 'fields: an invalid seed (duplicate agent ids) is refused at start with a clear error',
    run: async () => {
      const seed = {
        accounts: [
          {
            api_key: 'a',
            credits: 1,
            agents: [
              { agent_id: 'x', image_url: '/x.png' },
              { agent_id: 'x', image_url: '/y.png' },
            ],
          },
        ],
      };
      await expect(createEmulator({ port: 0, seed })).rejects.toThrow(/duplicate agent_id/);
    },
  },
];
