// Errors a PostgreSQL history reports at start or while running, with the database they concern
// (its URL without the password).

export const PgHistoryErrorCode = {
  Unreachable: 'UNREACHABLE',
  SchemaTooNew: 'SCHEMA_TOO_NEW',
  SchemaTooOld: 'SCHEMA_TOO_OLD',
  MissingShard: 'MISSING_SHARD',
  BadConfig: 'BAD_CONFIG',
  NotWriter: 'NOT_WRITER',
  WriterLost: 'WRITER_LOST',
  /** A shard database holds rows of a history its meta database does not name. */
  ForeignHistory: 'FOREIGN_HISTORY',
  /** A shard database given for a shard of the history that it does not hold. */
  ShardMismatch: 'SHARD_MISMATCH',
  /** A front end's statement the database did not answer in time. */
  Timeout: 'TIMEOUT',
  /** An archival history given to a writer that collects garbage. */
  KindMismatch: 'KIND_MISMATCH',
} as const;
export type PgHistoryErrorCode = (typeof PgHistoryErrorCode)[keyof typeof PgHistoryErrorCode];

export class PgHistoryError extends Error {
  override readonly name = 'PgHistoryError';
  /** Writing again cannot succeed (the follow loop stops rather than retry). */
  readonly fatal: boolean;
  constructor(
    readonly code: PgHistoryErrorCode,
    message: string,
  ) {
    super(message);
    this.fatal = code === PgHistoryErrorCode.NotWriter || code === PgHistoryErrorCode.WriterLost;
  }
}

/** A connection URL as it may be shown: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    // libpq takes the password as a parameter too (`?password=…`), as pg's connection strings do.
    for (const name of new Set(u.searchParams.keys()))
      if (name.toLowerCase() === 'password') u.searchParams.set(name, '***');
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

// Errors a history has named as failures of one of its databases, kept by identity so that no text
// a statement's error carries can make another failure pass for one.
const onDatabase = new WeakSet<Error>();

/** Names the database an error happened on (`the shard database postgres://…: …`), once. */
export function nameDatabaseFailure(err: Error, where: string): void {
  if (onDatabase.has(err)) return;
  onDatabase.add(err);
  err.message = `${where}: ${err.message}`;
}

/** A failure of one of a history's databases: its own typed errors, or a statement named by it. */
export function isDatabaseFailure(err: unknown): boolean {
  return err instanceof PgHistoryError || (err instanceof Error && onDatabase.has(err));
}
