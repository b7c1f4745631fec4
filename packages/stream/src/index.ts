export * from './message.js';
export * from './source.js';
