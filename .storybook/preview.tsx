import type { Decorator, Preview } from '@storybook/react-vite';
import '../src/components/styles/index.css';
import './preview.css';

/** Wraps every story in a themed page; the toolbar switches light / dark / auto. */
const withTheme: Decorator = (Story, ctx) => (
  <div className="sb-liveai" data-theme={ctx.globals.theme ?? 'light'}>
    <Story />
  </div>
);

const preview: Preview = {
  decorators: [withTheme],
  globalTypes: {
    theme: {
      description: 'liveai theme (data-theme)',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark', 'auto'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true, matchers: { color: /(background|color)$/i } },
    a11y: { test: 'error' },
  },
};
export default preview;
