// A store belongs to the genesis it was made from. nearcore refuses a store whose genesis block is
// not the one the configured genesis makes ("Genesis mismatch between storage and config"); nearlite
// keeps a digest of the genesis file's config (every field but the records, keys sorted, so
// formatting does not count) beside the DB version and refuses a start whose genesis.json differs:
// a chain id, epoch length, shard layout or validator set edited after the first start would
// otherwise be served over blocks made from the old one.
import { bytesEqual, sha256, toHex } from '@nearlite/primitives';
import { asciiKey, DBCol, type Store, StoreUpdate } from '@nearlite/store';
import type { GenesisConfig } from './config.js';

const KEY = asciiKey('genesis_config');

export class GenesisMismatchError extends Error {
  override readonly name = 'GenesisMismatchError';
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, canonical(o[k])]),
  );
}

/** The digest of a genesis file's config (its records, inline or by file, left out). */
export function genesisConfigDigest(config: GenesisConfig): Uint8Array {
  return sha256(new TextEncoder().encode(JSON.stringify(canonical(config.raw))));
}

/**
 * Records the digest in a store that has none (a new one, or one made before digests were kept) and
 * refuses one that holds another. `genesisPath` names the file in the refusal.
 */
/** Refuses a store that holds the digest of another genesis config; a reader's check, writing nothing. */
export function ensureGenesisConfig(store: Store, config: GenesisConfig, genesisPath: string): void {
  const kept = store.get(DBCol.DbVersion, KEY);
  if (kept === undefined) return;
  const digest = genesisConfigDigest(config);
  if (!bytesEqual(kept, digest)) throw genesisMismatch(genesisPath, digest, kept);
}

export async function checkGenesisConfig(
  store: Store,
  config: GenesisConfig,
  genesisPath: string,
): Promise<void> {
  const digest = genesisConfigDigest(config);
  const kept = store.get(DBCol.DbVersion, KEY);
  if (kept === undefined) {
    const u = new StoreUpdate();
    u.put(DBCol.DbVersion, KEY, digest);
    await store.commit(u);
    return;
  }
  if (bytesEqual(kept, digest)) return;
  throw genesisMismatch(genesisPath, digest, kept);
}

export function genesisMismatch(
  genesisPath: string,
  digest: Uint8Array,
  kept: Uint8Array,
): GenesisMismatchError {
  return new GenesisMismatchError(
    `${genesisPath} is not the genesis this store was made from (config digest ${toHex(digest).slice(0, 16)}…, ` +
      `the store's ${toHex(kept).slice(0, 16)}…): nearcore refuses such a start as a genesis mismatch between ` +
      'storage and config. Put the original genesis.json back, or start a new home from this one.',
  );
}
