// The last final block this node announced, kept outside LevelDB (`<home>/final_head.json`) so that
// damage to the database cannot take it along: a store that lost blocks clients have seen as final
// must not quietly re-produce those heights with other hashes. One record per store directory: a home
// whose `store.path` names another directory (a second disk tried, then left) keeps each store's.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
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

const OWN_RECORD = 'final_head.json';

/**
 * The record of the store in `dataDir`: `final_head.json` for the home's own `data`, and for a store
 * elsewhere a name of its own, from its absolute path.
 */
export function finalHeadPath(home: string, dataDir: string): string {
  const at = resolve(dataDir);
  if (at === resolve(home, 'data')) return join(home, OWN_RECORD);
  return join(home, `final_head.${createHash('sha256').update(at).digest('hex').slice(0, 16)}.json`);
}

export function readFinalHead(home: string, dataDir: string): FinalHead | null {
  return readRecord(finalHeadPath(home, dataDir));
}

function readRecord(path: string): FinalHead | null {
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
export function writeFinalHead(home: string, dataDir: string, height: number, hash: CryptoHash): void {
  writeFileSync(finalHeadPath(home, dataDir), record(height, hash));
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

  constructor(home: string, dataDir: string) {
    const path = finalHeadPath(home, dataDir);
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
export function checkFinalHead(
  home: string,
  dataDir: string,
  head: { height: number } | null,
  cs: ChainStore | null,
): void {
  const seen = readFinalHead(home, dataDir);
  if (!seen || holds(cs, seen)) return;
  throw new FinalHeadError(
    `the store no longer holds final block #${seen.height} (${seen.hash}), which this node announced; ` +
      `its head is ${head ? `#${head.height}` : 'gone (the store is empty)'}. Producing from here would ` +
      `give heights clients saw as final other hashes. \`nearlite repair --home ${home}\` reports what ` +
      'was lost and accepts the store as it is.',
  );
}

function holds(cs: ChainStore | null, seen: FinalHead): boolean {
  const stored = cs?.blockHashByHeight(seen.height);
  return stored !== undefined && bytesEqual(stored, base58Decode(seen.hash));
}

/**
 * Homes kept one record, `final_head.json`, for whichever store `store.path` named. A store elsewhere
 * that holds the block it names (the home's database moved to another disk) takes it as its own.
 */
export function adoptHomeFinalHead(home: string, dataDir: string, cs: ChainStore | null): void {
  const own = finalHeadPath(home, dataDir);
  const shared = join(home, OWN_RECORD);
  if (own === shared || existsSync(own)) return;
  const seen = readRecord(shared);
  if (seen && holds(cs, seen)) renameSync(shared, own);
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
  const seen = readFinalHead(home, dataPath);
  rmSync(finalHeadPath(home, dataPath), { force: true });
  return seen;
}
