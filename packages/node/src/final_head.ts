// The last final block this node announced, kept outside LevelDB (`<home>/final_head.json`) so that
// damage to the database cannot take it along: a store that lost blocks clients have seen as final
// must not quietly re-produce those heights with other hashes.
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainStore } from '@nearlite/chain';
import { base58Decode, base58Encode, bytesEqual, type CryptoHash } from '@nearlite/primitives';
import { databaseExists } from '@nearlite/store';

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

/** Once: a whole-file write, for repair. */
export function writeFinalHead(home: string, height: number, hash: CryptoHash): void {
  writeFileSync(finalHeadPath(home), record(height, hash));
}

/** Fixed-size, space-padded: each update is one write at offset 0 that the kernel takes whole. */
const RECORD_BYTES = 128;

function record(height: number, hash: CryptoHash): Uint8Array {
  const out = new Uint8Array(RECORD_BYTES).fill(0x20);
  out.set(new TextEncoder().encode(JSON.stringify({ height, hash: base58Encode(hash) })));
  return out;
}

/**
 * Updates the file after every committed block in place — no temporary file, no rename, so the
 * home's directory does not change under anyone — with a single small write that a killed process
 * cannot tear.
 */
export class FinalHeadWriter {
  private fd: number | null;

  constructor(home: string) {
    const path = finalHeadPath(home);
    this.fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
  }

  write(height: number, hash: CryptoHash): void {
    if (this.fd !== null) writeSync(this.fd, record(height, hash), 0, RECORD_BYTES, 0);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
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

/**
 * A home whose store directory holds no database at all starts a new chain, as nearcore's does when
 * its `data` is deleted: that is how a local chain is reset (near-kit's sandbox restart does it, with
 * a new genesis). No crash or damaged log removes LevelDB's `CURRENT`, which every database has from
 * its creation, so the final block recorded for the store that was there is forgotten, not refused.
 * Returns what was forgotten, for the log.
 */
export function forgetFinalHeadOfRemovedStore(home: string, dataPath: string): FinalHead | null {
  if (databaseExists(dataPath)) return null;
  const seen = readFinalHead(home);
  rmSync(finalHeadPath(home), { force: true });
  return seen;
}
