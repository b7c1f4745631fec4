// DB version and kind live inside the DB so a node never opens a store it would misread.
// Version 2: block header records may end in a layout byte (BlockHeaderInnerRestV6); version 1
// records still read, and an older nearlite's node refuses a version-2 store rather than misread it.
import { DBCol } from './columns.js';
import { StoreError, StoreErrorCode } from './errors.js';
import { asciiKey } from './keys.js';
import type { Store } from './store.js';
import { StoreUpdate } from './store_update.js';

export const DB_VERSION = 2;
export type DbKind = 'archival' | 'gc';

const VERSION_KEY = asciiKey('version');
const KIND_KEY = asciiKey('kind');
const dec = new TextDecoder();
const enc = new TextEncoder();

export interface DbMetadata {
  readonly version: number;
  readonly kind: DbKind;
}

export function readMetadata(store: Store): DbMetadata | null {
  const v = store.get(DBCol.DbVersion, VERSION_KEY);
  const k = store.get(DBCol.DbVersion, KIND_KEY);
  if (!v || !k) return null;
  return { version: Number(dec.decode(v)), kind: dec.decode(k) as DbKind };
}

export function writeMetadata(update: StoreUpdate, meta: DbMetadata): void {
  update.put(DBCol.DbVersion, VERSION_KEY, enc.encode(String(meta.version)));
  update.put(DBCol.DbVersion, KIND_KEY, enc.encode(meta.kind));
}

/**
 * Refuses a database this nearlite would misread, as nearcore's opener does (DbVersionTooNew, and
 * a version below the first it knows).
 */
export function checkDbVersion(version: number): void {
  if (version > DB_VERSION) {
    throw new StoreError(
      StoreErrorCode.Version,
      `the database has version ${version}, newer than this node supports (${DB_VERSION}); upgrade nearlite`,
    );
  }
  if (!(version >= 1)) {
    throw new StoreError(
      StoreErrorCode.Version,
      `the database has version ${version}, which no nearlite wrote (the first is 1); it is not a store this node reads`,
    );
  }
}

/** The store's metadata, refused (checkDbVersion) where its version is one this nearlite does not read. */
export function readCheckedMetadata(store: Store): DbMetadata | null {
  const meta = readMetadata(store);
  if (meta) checkDbVersion(meta.version);
  return meta;
}

/**
 * Checks (or, for a fresh store, records) version and kind. Opening an archival store as GC, or back,
 * is refused unless `convert` is set: GC would destroy history an operator chose to keep, and an
 * archival node on a pruned store would answer "unknown" for data it is expected to have.
 */
export async function ensureMetadata(
  store: Store,
  kind: DbKind,
  opts: { convert?: boolean } = {},
): Promise<DbMetadata> {
  const meta = readCheckedMetadata(store);
  if (!meta) {
    const u = new StoreUpdate();
    writeMetadata(u, { version: DB_VERSION, kind });
    await store.commit(u);
    return { version: DB_VERSION, kind };
  }
  if (meta.kind !== kind) {
    // nearcore opens an RPC store with `archive` set (StoreOpener, is_valid_kind_archive): the node
    // collects nothing from then on and the store stays of its kind; only a conversion makes it an
    // archival one. An archival store is refused to a node that would collect it.
    if (meta.kind === 'gc' && kind === 'archival' && !opts.convert) return meta;
    if (!opts.convert) {
      throw new StoreError(
        StoreErrorCode.Kind,
        `the database is ${meta.kind === 'archival' ? 'an archival' : 'a garbage-collected'} store but the node was started ` +
          `${kind === 'archival' ? 'with --archive' : 'without --archive'}; pass --convert-db-kind to convert it explicitly`,
      );
    }
    const u = new StoreUpdate();
    writeMetadata(u, { version: meta.version, kind });
    await store.commit(u);
    return { version: meta.version, kind };
  }
  return meta;
}

/**
 * Records this version on a store of an older one, which this node reads as it is: what it writes
 * from now on (V6 header records) the older node would misread, and it refuses a newer version. A
 * node calls it once every check of its start has passed, so a refused start leaves the store to the
 * older node as it was.
 */
export async function recordDbVersion(store: Store): Promise<void> {
  const meta = readMetadata(store);
  if (!meta || meta.version >= DB_VERSION) return;
  const u = new StoreUpdate();
  writeMetadata(u, { version: DB_VERSION, kind: meta.kind });
  await store.commit(u);
}
