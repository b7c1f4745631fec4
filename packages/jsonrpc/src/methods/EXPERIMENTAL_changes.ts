// An alias sharing changes' handler, as in nearcore.
export { changes as EXPERIMENTAL_changes } from './changes.js';
