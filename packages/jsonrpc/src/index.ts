export type * from './backend.js';
