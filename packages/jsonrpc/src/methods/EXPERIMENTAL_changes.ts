export { changes as EXPERIMENTAL_changes } from './changes.js';
