export * from './pcm';
export * from './stream';
