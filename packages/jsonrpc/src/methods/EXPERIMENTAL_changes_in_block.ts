// An alias sharing block_effects' handler, as in nearcore.
export { block_effects as EXPERIMENTAL_changes_in_block } from './block_effects.js';
