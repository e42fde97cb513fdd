/** Appends the `data-theme="auto"` copy of the `[data-theme="dark"]` palette under `prefers-color-scheme: dark`. */
export function withAutoTheme(css: string): string;
