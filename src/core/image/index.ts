export * from './geometry';
export * from './prepare';
export * from './blob';
