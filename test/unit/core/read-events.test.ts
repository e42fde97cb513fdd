import { describe, expect, it } from 'vitest';
import { readAvatarEventMessage } from '../../../src/core/events/read';
import * as v from '../../../src/core/validation';

describe('reading transport messages', () => {
  it('delivers a well-formed event at once, and anything else at once as invalid_event naming the field', () => {
    const got: unknown[] = [];
    expect(readAvatarEventMessage('{"type":"agent_transcription","transcription":"hi","x":1}', (p) => got.push(p))).toBe('event');
    expect(got).toEqual([{ ok: true, event: { type: 'agent_transcription', transcription: 'hi', x: 1 } }]);
    expect(readAvatarEventMessage('{"type":', (p) => got.push(p))).toBe('invalidMessage');
    expect(readAvatarEventMessage({ type: 'daily_error', error: 'x' }, (p) => got.push(p))).toBe('invalidMessage');
    expect(got).toHaveLength(3);
    expect(got[2]).toEqual(v.parseAvatarEventMessage({ type: 'daily_error', error: 'x' }));
    expect(got[2]).toMatchObject({ ok: false, error: { code: 'invalid_event', detail: expect.stringContaining('fatal') } });
  });
});
