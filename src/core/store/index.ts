export * from './state';
export * from './reducers';
