export * from './bus';
export type { ParsedMessage } from './parse';
