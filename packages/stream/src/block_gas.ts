// The gas a streamed block's chunks used, as nearcore's client counts a processed block for its
// status line (Block::compute_gas_used): the `gas_used` of each chunk new in the block. It only
// feeds a log line, so a value of another shape counts as none rather than throw.
import type { BlockViewJson } from './message.js';

export function blockGasUsed(block: BlockViewJson): bigint {
  let gas = 0n;
  if (!Array.isArray(block.chunks)) return gas;
  for (const c of block.chunks) {
    const used = (c as { gas_used?: unknown } | null)?.gas_used;
    if (c?.height_included !== block.header.height) continue;
    if (
      (typeof used === 'number' && Number.isSafeInteger(used) && used >= 0) ||
      (typeof used === 'string' && /^\d+$/.test(used))
    )
      gas += BigInt(used);
  }
  return gas;
}
