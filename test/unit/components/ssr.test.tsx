// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('server rendering', () => {
  it('imports the components and the element in Node without window or HTMLElement', async () => {
    expect(typeof window).toBe('undefined');
    const components = await import('../../../src/components');
    const element = await import('../../../src/element');
    expect(typeof components.AvatarWidget).toBe('function');
    expect(typeof element.defineLiveAiAvatar).toBe('function');
    expect(element.defineLiveAiAvatar()).toBe(false);
  });

  it('renders the views to HTML', async () => {
    const c = await import('../../../src/components');
    // The stage's call screens (here the progress) are their own chunk: a server renders them once it has loaded it.
    await (await import('../../../src/components/stage/AvatarStage')).loadCallScreens();
    const html = renderToString(
      <c.AvatarWidgetView
        state="active"
        phase="queued"
        stage={<c.AvatarStageView phase="queued" />}
        chat={<c.ChatInputView onSend={() => undefined} disabled />}
      />,
    );
    expect(html).toContain('data-phase="queued"');
    expect(html).toContain('role="progressbar"');
  });
});
