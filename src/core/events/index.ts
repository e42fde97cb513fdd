export * from './bus';
export * from './parse';
