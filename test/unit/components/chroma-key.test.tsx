import './cleanup';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvatarStageView } from '../../../src/components';
import { keyAlpha, startChromaKey } from '../../../src/components/stage/chroma-key';
import { attributeProblem, propsFromAttributes } from '../../../src/element/attributes';

const region = () => screen.getByRole('region', { name: 'Avatar' });
const defaults = { similarity: 0.4, smoothness: 0.08, spill: 0.1 };

describe('chroma key', () => {
  it('removes what is within `similarity` of the key colour, keeps what is past the soft edge, fades in between', () => {
    expect(keyAlpha(0, defaults).alpha).toBe(0);
    expect(keyAlpha(0.39, defaults).alpha).toBe(0);
    expect(keyAlpha(0.44, defaults).alpha).toBeCloseTo(0.5, 1);
    expect(keyAlpha(0.49, defaults).alpha).toBe(1);
    // Spill: the tint of the backdrop goes out of edges that stay, and not out of colours far from it.
    expect(keyAlpha(0.45, defaults).keep).toBeLessThan(1);
    expect(keyAlpha(0.6, defaults).keep).toBe(1);
  });

  it('refuses a colour that is not #rgb or #rrggbb, naming it (before touching the canvas)', () => {
    const video = document.createElement('video');
    const canvas = document.createElement('canvas');
    expect(() => startChromaKey(video, canvas, { color: 'green' })).toThrow(
      new TypeError('chromaKey.color must be #rgb or #rrggbb, got "green"'),
    );
  });

  it('a stage without it has no canvas; with it, in a browser that cannot draw (no WebGL, no 2D canvas), the video shows as it is', async () => {
    const { container, rerender } = render(<AvatarStageView phase="active" />);
    expect(container.querySelector('canvas')).toBeNull();
    expect(region()).not.toHaveAttribute('data-chroma-key');
    rerender(<AvatarStageView phase="active" chromaKey />);
    expect(container.querySelector('canvas.liveai-stage__canvas')).toBeInTheDocument();
    // jsdom gives neither context: the key reports `off` (the CSS then keeps the video).
    // The stage loads the key's code with import(); once that module has loaded, it reports what it could do.
    await act(() => import('../../../src/components/stage/chroma-key'));
    expect(region()).toHaveAttribute('data-chroma-key', 'off');
  });

  it('<liveai-avatar chroma-key>: empty keys green, #rrggbb that colour, anything else is reported and keys green', () => {
    const el = document.createElement('div');
    el.setAttribute('chroma-key', '');
    expect(propsFromAttributes(el).chromaKey).toBe(true);
    el.setAttribute('chroma-key', '#0047bb');
    expect(propsFromAttributes(el).chromaKey).toEqual({ color: '#0047bb' });
    expect(attributeProblem('chroma-key', 'blue')).toBe('chroma-key="blue" is not a colour like #00ff00; keying green');
    el.setAttribute('chroma-key', 'blue');
    expect(propsFromAttributes(el).chromaKey).toBe(true);
    el.removeAttribute('chroma-key');
    expect(propsFromAttributes(el).chromaKey).toBeUndefined();
  });
});
