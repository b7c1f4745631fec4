// The flags of every command but view-state, parsed in one table: near-workspaces runs
// `near-sandbox --home DIR init`, so flags may come before the command; which command takes which
// is checked after (cli.ts).
import { parseArgs } from 'node:util';
import { UsageError } from './cli_flags.js';

const OPTIONS = {
  home: { type: 'string' },
  'chain-id': { type: 'string' },
  shards: { type: 'string' },
  'num-shards': { type: 'string' },
  'test-seed': { type: 'string' },
  'epoch-length': { type: 'string' },
  genesis: { type: 'string' },
  'account-id': { type: 'string' },
  fast: { type: 'boolean' },
  'rpc-addr': { type: 'string' },
  'network-addr': { type: 'string' },
  'block-time': { type: 'string' },
  'rpc-prometheus-addr': { type: 'string' },
  'max-gas-burnt-view': { type: 'string' },
  archive: { type: 'boolean' },
  'convert-db-kind': { type: 'boolean' },
  sandbox: { type: 'boolean' },
  quiet: { type: 'boolean' },
  prefix: { type: 'string' },
  follow: { type: 'string' },
  'upstream-rpc': { type: 'string' },
  store: { type: 'string' },
  'shard-db': { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  out: { type: 'string' },
  'lake-out': { type: 'string' },
  's3-bucket': { type: 'string' },
  's3-prefix': { type: 'string' },
  's3-endpoint': { type: 'string' },
  's3-region': { type: 'string' },
} as const;

/**
 * The flags and arguments of `argv`. Node's own refusal of an unknown flag suggests quoting it as a
 * positional argument, which no command takes: the flag is named instead, with where the flags are
 * listed (neard's `--boot-nodes` and the like).
 */
export function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({ args: valuesJoined(argv), allowPositionals: true, options: OPTIONS, strict: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const flag = /'(-[^']*)'/.exec((err as Error).message)?.[1];
    // A negative number reads as a short flag; what it was meant as (a height, a shard) never is.
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag && /^-\d/.test(flag))
      throw new UsageError(`unexpected argument '${flag}': heights and shard ids are never negative`);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag)
      throw new UsageError(`unknown option '${flag}' (nearlite --help lists each command's options)`);
    throw err;
  }
}

/**
 * A flag that takes a value, given a negative number (`--block-time -5`), as `--block-time=-5`: Node's
 * parser would call the number an ambiguous flag, where the flag's own check says what it must be.
 */
function valuesJoined(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const option = a.startsWith('--') ? OPTIONS[a.slice(2) as keyof typeof OPTIONS] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}
