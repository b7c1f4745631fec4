// near-lake-framework-js camelCases every key of the StreamerMessage it hands out (`prevStateRoot`,
// `receiptExecutionOutcomes`, `codeBase64`). This restores nearcore's snake_case keys. Only keys
// change: enum variant names (`FunctionCall`, `SuccessValue`, `V1`) start with a capital and are kept,
// and string values (the `type` of state changes and causes) are never touched. The u64 header
// `timestamp` lost precision in JavaScript, so it is rebuilt from `timestamp_nanosec`.
import { parseStreamJson } from './json.js';
import type { StreamerMessage } from './message.js';

export function snakeCaseKey(key: string): string {
  const first = key.charCodeAt(0);
  if (first >= 65 && first <= 90) return key;
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[snakeCaseKey(k)] = convert(v);
  return out;
}

/** Whether a parsed message has the camelCased keys of near-lake-framework-js. */
export function isCamelCased(message: unknown): boolean {
  const m = message as { shards?: unknown; block?: { header?: Record<string, unknown> } };
  return m.block?.header?.prevHash !== undefined || m.block?.header?.timestampNanosec !== undefined;
}

/** Restores a block view's exact u64 `header.timestamp` (a bigint) from `timestamp_nanosec`. */
function restoreBlockTimestamp(block: unknown): void {
  const header = (block as { header?: Record<string, unknown> } | undefined)?.header;
  if (header && typeof header.timestamp_nanosec === 'string') {
    header.timestamp = BigInt(header.timestamp_nanosec);
  }
}

/** Restores the exact u64 `header.timestamp` (a bigint) from `timestamp_nanosec`. */
export function restoreTimestamp(message: StreamerMessage): StreamerMessage {
  restoreBlockTimestamp(message.block);
  return message;
}

/** A Lake `block.json` (a BlockView) camelCased, in snake_case; anything else as it is. */
export function normalizeBlockView(view: unknown): unknown {
  const header = (view as { header?: Record<string, unknown> } | null)?.header;
  if (header?.prevHash === undefined && header?.timestampNanosec === undefined) return view;
  const block = convert(view);
  restoreBlockTimestamp(block);
  return block;
}

/** A Lake `shard_<id>.json` (an IndexerShard) camelCased, in snake_case; anything else as it is. */
export function normalizeShard(shard: unknown): unknown {
  const s = shard as Record<string, unknown> | null;
  return s && typeof s === 'object' && s.shardId !== undefined && s.shard_id === undefined
    ? convert(s)
    : shard;
}

/** A camelCased message in nearcore's snake_case form; a snake_case message is returned as is. */
export function normalizeStreamerMessage(message: unknown): StreamerMessage {
  const m = (isCamelCased(message) ? convert(message) : message) as StreamerMessage;
  return restoreTimestamp(m);
}

/** Parses a StreamerMessage as any source sends it (snake_case or camelCase JSON text). */
export function parseStreamerMessage(text: string): StreamerMessage {
  return normalizeStreamerMessage(parseStreamJson(text));
}
