// The last final block this node announced, kept outside LevelDB (`<home>/final_head.json`) so that
// damage to the database cannot take it along: a store that lost blocks clients have seen as final
// must not quietly re-produce those heights with other hashes.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainStore } from '@nearlite/chain';
import { base58Decode, base58Encode, bytesEqual, type CryptoHash } from '@nearlite/primitives';

export interface FinalHead {
  readonly height: number;
  readonly hash: string;
}

export class FinalHeadError extends Error {
  override readonly name = 'FinalHeadError';
}

export const finalHeadPath = (home: string) => join(home, 'final_head.json');

export function readFinalHead(home: string): FinalHead | null {
  const path = finalHeadPath(home);
  if (!existsSync(path)) return null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as FinalHead;
    if (Number.isSafeInteger(v.height) && typeof v.hash === 'string') return v;
  } catch {
    // A torn write of this small file is an older run's problem, not the chain's: it is rewritten.
  }
  return null;
}

/** Written after every committed block; a rename keeps it whole if the process dies mid-write. */
export function writeFinalHead(home: string, height: number, hash: CryptoHash): void {
  const path = finalHeadPath(home);
  writeFileSync(`${path}.tmp`, JSON.stringify({ height, hash: base58Encode(hash) }));
  renameSync(`${path}.tmp`, path);
}

/** Refuses a store that no longer holds the final block this node last announced. */
export function checkFinalHead(home: string, head: { height: number } | null, cs: ChainStore | null): void {
  const seen = readFinalHead(home);
  if (!seen) return;
  const stored = cs?.blockHashByHeight(seen.height);
  if (stored && bytesEqual(stored, base58Decode(seen.hash))) return;
  throw new FinalHeadError(
    `the store no longer holds final block #${seen.height} (${seen.hash}), which this node announced; ` +
      `its head is ${head ? `#${head.height}` : 'gone (the store is empty)'}. Producing from here would ` +
      `give heights clients saw as final other hashes. \`nearlite repair --home ${home}\` reports what ` +
      'was lost and accepts the store as it is.',
  );
}
