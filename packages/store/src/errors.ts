export const StoreErrorCode = {
  Locked: 'LOCKED',
  Version: 'VERSION',
  Kind: 'KIND',
  Closed: 'CLOSED',
  Io: 'IO',
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
