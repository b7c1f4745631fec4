export * from './genesis_state.js';
export * from './nibbles.js';
export * from './raw_node.js';
export * from './trie.js';
export * from './trie_changes.js';
export * from './trie_key.js';
export * from './trie_recorder.js';
export * from './trie_update.js';
export type * from './trie_update_types.js';
