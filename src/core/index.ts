/**
 * liveai-kit core: framework-free, runs in browsers and Node. No React, no transport SDK,
 * no Node built-ins are imported from here (architecture §2).
 */
export * from './constants';
export * from './errors';
export * from './schemas';
