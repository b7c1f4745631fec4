export type * from './trie_update_types.js';
