// The Vue app of docs/components.md ("Vue"), with what the element reports recorded on `window.__liveai` for the
// test to read (the events bubble and are composed, so they reach `document`).
import { createApp } from 'vue';
import App from './App.vue';

type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };
const probe: Probe = ((window as unknown as { __liveai: Probe }).__liveai = { phases: [], errors: [], lines: [] });
document.addEventListener('liveai-phase', (e) => probe.phases.push((e as CustomEvent<{ phase: string }>).detail.phase));
document.addEventListener('liveai-error', (e) => {
  const { code, detail } = (e as CustomEvent<{ code: string; detail: string }>).detail;
  probe.errors.push({ code, detail });
});
document.addEventListener('liveai-transcript', (e) => probe.lines.push((e as CustomEvent<{ text: string }>).detail.text));

createApp(App).mount('#app');
