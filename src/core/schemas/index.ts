export * from './common';
export * from './rooms';
export * from './sessions';
export * from './control';
export * from './events';
export * from './proxy';
