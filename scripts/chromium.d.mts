export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_BASE_ARGS: string[];
export declare const CHROMIUM_MEDIA_ARGS: string[];
export declare const CHROMIUM_ARGS: string[];
