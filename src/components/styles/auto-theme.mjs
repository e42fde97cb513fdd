/**
 * The one place that derives data-theme="auto" from the dark palette of theme.css (written once, under
 * `[data-theme="dark"]`): appends `@media (prefers-color-scheme: dark) { [data-theme="auto"] { …same… } }`.
 * Plain ESM so both scripts/build-css.mjs (Node) and <liveai-avatar> (bundled) use it. Accepts the selector
 * quoted or, as minifiers write it, unquoted. Returns the CSS unchanged when it has no dark block.
 * @param {string} css
 * @returns {string}
 */
export function withAutoTheme(css) {
  const dark = /\[data-theme=(?:"dark"|'dark'|dark)\]\s*\{([^}]*)\}/.exec(css);
  if (!dark) return css;
  return `${css}\n@media (prefers-color-scheme: dark) {\n  [data-theme="auto"] {${dark[1]}}\n}\n`;
}
