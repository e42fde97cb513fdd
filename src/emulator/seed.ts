import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { LiveAiError } from '../core/index';
import { formatZodError } from '../core/internal';

/** One agent of a seed account. `image_url` is absolute, or relative to the emulator base URL. */
export const SeedAgentSchema = z.object({
  agent_id: z.string().min(1),
  image_url: z.string().min(1),
});
/** One account: its API key, credit balance (credits) and agents. */
export const SeedAccountSchema = z.object({
  api_key: z.string().min(1),
  credits: z.number().finite(),
  agents: z.array(SeedAgentSchema).default([]),
});
/**
 * Seed file (contract):
 * `{"accounts":[{"api_key":"…","credits":100,"agents":[{"agent_id":"…","image_url":"…"}]}]}`.
 * API keys and agent ids must be unique across the whole seed.
 * @public
 */
export const SeedSchema = z.object({ accounts: z.array(SeedAccountSchema).min(1) }).superRefine((seed, ctx) => {
  const keys = new Set<string>();
  const agents = new Set<string>();
  seed.accounts.forEach((a, i) => {
    if (keys.has(a.api_key)) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'api_key'], message: 'duplicate api_key' });
    keys.add(a.api_key);
    a.agents.forEach((g, j) => {
      if (agents.has(g.agent_id))
        ctx.addIssue({ code: 'custom', path: ['accounts', i, 'agents', j, 'agent_id'], message: 'duplicate agent_id' });
      agents.add(g.agent_id);
    });
  });
});
/**
 * A validated seed: the accounts (API key, credit balance in credits, agents) the local service starts with.
 * @public
 */
export type Seed = z.output<typeof SeedSchema>;
/**
 * A seed as you write it (an agent list may be left out: it defaults to none).
 * @public
 */
export type SeedInput = z.input<typeof SeedSchema>;

const asset = (agent: string) => ({ agent_id: agent, image_url: `/liveai/assets/${agent}.png` });

/**
 * Built-in seed used when no seed is given: alice (2 agents), bob, and a broke account (0 credits → 402).
 * @public
 */
export const BUILTIN_SEED: Seed = {
  accounts: [
    { api_key: 'dev-key-alice', credits: 100, agents: [asset('agent-demo'), asset('agent-cartoon')] },
    { api_key: 'dev-key-bob', credits: 100, agents: [asset('agent-bob')] },
    { api_key: 'dev-key-broke', credits: 0, agents: [asset('agent-broke')] },
  ],
};

/**
 * Loads and validates a seed: an object in the seed format, a path to a JSON file, or undefined (built-in seed).
 * @throws LiveAiError `invalid_request` when the file cannot be read or parsed, or the seed is invalid.
 */
export async function loadSeed(seed: SeedInput | string | undefined): Promise<Seed> {
  if (seed === undefined) return structuredClone(BUILTIN_SEED);
  let raw: unknown = seed;
  if (typeof seed === 'string') {
    try {
      raw = JSON.parse(await readFile(seed, 'utf8'));
    } catch (e) {
      throw new LiveAiError('invalid_request', `cannot read seed file ${seed}: ${(e as Error).message}`);
    }
  }
  const parsed = SeedSchema.safeParse(raw);
  if (!parsed.success) throw new LiveAiError('invalid_request', `invalid seed: ${formatZodError(parsed.error)}`);
  return parsed.data;
}
