/** Types of scripts/build-css.mjs, for the tests that build the stylesheets from the sources. */
export declare const FAMILIES: string[];
export declare function familyFile(family: string): string;
export declare function bundleCss(file: string, seen?: Set<string>): string;
export declare function minifyCss(css: string): string;
export declare function buildCss(file: string): string;
