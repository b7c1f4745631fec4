import { base58Encode } from '@nearlite/primitives';
export const StoreErrorCode = {
  Locked: 'LOCKED',
  Version: 'VERSION',
  Kind: 'KIND',
  Closed: 'CLOSED',
  /** A write to a store opened read-only. */
  ReadOnly: 'READ_ONLY',
  Io: 'IO',
  /** A row whose bytes are not what its key says they are. */
  Damaged: 'DAMAGED',
} as const;
export type StoreErrorCode = (typeof StoreErrorCode)[keyof typeof StoreErrorCode];

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A batch LevelDB failed to write: the store takes no more writes until it is opened again. `fatal`
 * tells a writer's retry loop that trying again cannot help.
 */
export class StoreWriteFailure extends StoreError {
  readonly fatal = true;
  constructor(cause: unknown) {
    super(
      StoreErrorCode.Io,
      `the database failed a write and takes no more until it is opened again: ${(cause as Error).message ?? String(cause)}`,
    );
  }
}

/** A content-addressed row (`ColumnSpec.contentAddressed`) whose bytes do not hash to its key. */
export class DamagedRowError extends StoreError {
  constructor(colName: string, key: Uint8Array, actual: Uint8Array) {
    super(
      StoreErrorCode.Damaged,
      `the ${colName} row ${base58Encode(key)} is damaged: its bytes hash to ${base58Encode(actual)}`,
    );
  }
}
