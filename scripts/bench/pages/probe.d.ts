/** The shared first-frame probe (probe.js); each page narrows it to the fields it uses. */
export declare const probe: unknown;
