import type { Decorator, Preview } from '@storybook/react-vite';
import { MessagesProvider, type MessagesOverride } from '../src/components';
import { ar } from '../src/components/i18n/ar';
import { loadCallScreens } from '../src/components/stage/AvatarStage';
import { callUi } from '../src/components/widget/call-parts';
import '../src/components/styles/index.css';
import './preview.css';

/** Right to left with English words (`dir: rtl`), so play functions still find their English names. */
const RTL_ENGLISH: MessagesOverride = { dir: 'rtl' };

/**
 * Wraps every story in a themed page; the toolbar switches light / dark / auto, the direction (ltr / rtl: mirrored,
 * English words) and the language (Arabic: the real right-to-left catalogue, for looking at the widget).
 */
const withTheme: Decorator = (Story, ctx) => {
  const lang = ctx.globals.lang === 'ar' ? ar : ctx.globals.dir === 'rtl' ? RTL_ENGLISH : null;
  const dir = lang?.dir ?? 'ltr';
  return (
    <div className="sb-liveai" data-theme={ctx.globals.theme ?? 'light'} dir={dir} lang={lang === ar ? 'ar' : 'en'}>
      <MessagesProvider messages={lang}>
        <Story />
      </MessagesProvider>
    </div>
  );
};

const preview: Preview = {
  decorators: [withTheme],
  // The parts of a placed call (the stage's progress, ended and error screens; the widget's controls, chat and
  // transcript) are chunks a page fetches when Start comes into view: fetched before each story renders, so a story
  // shows a phase as a page does, with no frame before they arrive.
  loaders: [async () => ({ callParts: await Promise.all([loadCallScreens(), callUi.load()]) })],
  globalTypes: {
    theme: {
      description: 'liveai theme (data-theme)',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark', 'auto'], dynamicTitle: true },
    },
    dir: {
      description: 'Writing direction (English words, mirrored layout)',
      toolbar: { title: 'Direction', icon: 'transfer', items: ['ltr', 'rtl'], dynamicTitle: true },
    },
    lang: {
      description: 'Language of the components',
      toolbar: { title: 'Language', icon: 'globe', items: ['en', 'ar'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light', dir: 'ltr', lang: 'en' },
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true, matchers: { color: /(background|color)$/i } },
    a11y: { test: 'error' },
  },
};
export default preview;
