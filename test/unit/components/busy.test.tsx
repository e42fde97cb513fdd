import './cleanup';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvatarStageView } from '../../../src/components';
import { LiveAiError } from '../../../src/core/errors';

describe("the proxy's busy answers", () => {
  it("503 (the site's ceiling on sessions) shows busy with the proxy's detail, not a service failure", () => {
    const error = LiveAiError.fromResponse(
      503,
      'This site is running as many avatar sessions as it allows; try again in a few minutes',
      'proxy',
    );
    render(<AvatarStageView phase="error" error={error} onRetry={() => {}} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The avatar is busy right now');
    expect(alert).toHaveTextContent('Many people are calling at once. Wait a few minutes.');
    // The proxy's technical text is for onError and the console, not for the visitor.
    expect(alert).not.toHaveTextContent('as many avatar sessions as it allows');
    expect(alert).not.toHaveTextContent('The avatar service had a problem');
  });

  it('429 (this visitor over their own limit) shows busy too', () => {
    render(<AvatarStageView phase="error" error={LiveAiError.fromResponse(429, 'Too many requests; try again in 30 s', 'proxy')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The avatar is busy right now');
  });
});
