// `nearlite` command line: init, run, start (init a default home if missing, then run).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { accountIdError, urlForDisplay } from '@nearlite/primitives';
import { describeSourceError, fileSpecDir, openSource, StreamSourceError } from '@nearlite/stream';
import { hostPortFlag, intFlag, rpcFlags, UsageError, upstreamFlag } from './cli_flags.js';
import { parseCommandLine } from './command_line.js';
import type { FollowOptions } from './follower_node.js';
import { homeConfig, homeFiles, initHome } from './home.js';
import type { LakeTarget } from './lake.js';
import { type Logger, logFatalErrors, routeProcessWarnings, stderrLogger } from './log.js';
import type { NearliteNode } from './node.js';
import type { ServeOptions } from './serve_node.js';
import { storeFromFlags } from './store_config.js';
import { VERSION } from './version.js';

const USAGE = `nearlite ${VERSION} — a NEAR-compatible node

Usage:
  nearlite init --home DIR [--chain-id ID] [--shards N] [--epoch-length N] [--genesis FILE] [--account-id ID]
                [--fast]        blocks every 120–500 ms and epochs of 60 blocks, as nearcore's init --fast
                [--num-shards N] nearcore's name for --shards; [--test-seed SEED] the validator key from SEED
  nearlite run  --home DIR [--rpc-addr HOST:PORT] [--block-time MS] [--archive] [--convert-db-kind]
                [--sandbox]     --sandbox serves sandbox_patch_state and sandbox_fast_forward
                [--rpc-prometheus-addr HOST:PORT] [--max-gas-burnt-view GAS]
                                nearcore's: override rpc.prometheus_addr and max_gas_burnt_view
                [--lake-out DIR|s3://BUCKET[/PREFIX] [--s3-endpoint URL] [--s3-region R]]
                                publish every final block in the NEAR Lake layout as it comes
  nearlite run  --home DIR --follow SOURCE [--upstream-rpc URL] [--rpc-addr HOST:PORT] [--archive]
                [--convert-db-kind] [--rpc-prometheus-addr HOST:PORT] [--max-gas-burnt-view GAS]
                [--s3-endpoint URL] [--s3-region R]
                follow a chain's block stream (SOURCE: http(s)://BASE neardata-style, s3://bucket[/prefix]
                or file:DIR, the NEAR Lake layout) and serve the read RPC from it; writes go to --upstream-rpc
                [--store postgres://META-URL --shard-db ID=postgres://URL ...]: write the history to PostgreSQL
                (a meta database and one per shard; several may be one) instead of the node's LevelDB
  nearlite serve --home DIR --store postgres://META-URL --shard-db ID=URL ... [--rpc-addr HOST:PORT]
                [--upstream-rpc URL] [--rpc-prometheus-addr HOST:PORT] [--max-gas-burnt-view GAS]
                                a stateless RPC front end over the PostgreSQL history one
                'run --follow' writes: start as many as needed
  nearlite start [--home DIR] [--rpc-addr HOST:PORT]
                                init DIR (default ./.nearlite) if missing, then run a local
                                sandbox (sandbox methods on) on 127.0.0.1:3030
  nearlite inspect --home DIR block [HEIGHT|HASH] | chunk HEIGHT [SHARD] | tx HASH | account ID [HEIGHT]
                              | state ID [--prefix P] | follow | stats | verify   (read a stopped node's store)
  nearlite lake-export --home DIR [--from H] [--to H]
                (--out DIR | --s3-bucket NAME [--s3-prefix P] [--s3-endpoint URL] [--s3-region R])
                                write the kept final blocks of a stopped node in the NEAR Lake layout
  nearlite repair --home DIR    roll a damaged store back to its last whole block, saying what it drops
  nearlite --home DIR view-state dump-state [--stream] [--file PATH] [--account-ids ID]…
                [--include-validators ID]…
                                nearcore's state dump: the head's state as the genesis of a new chain
                                (DIR/output.json, or DIR/output/ with --stream); the node may be running
  nearlite --version
  Any command: [--quiet] logs warnings and errors only; RUST_LOG=warn|debug|off… sets the log level
`;

/** The command an entry of USAGE shows (`view-state` comes after `--home DIR`). */
function commandOfEntry(entry: string): string | undefined {
  return /^ {2}nearlite (?:--home DIR )?([a-z-]+)/.exec(entry)?.[1];
}

// USAGE's title, and its entries: each shows one way to run one command, with the command it shows.
const [USAGE_HEAD, ...USAGE_ENTRIES] = USAGE.split(/\n(?= {2}nearlite )/).map((text) => ({
  text,
  command: commandOfEntry(text),
}));
const COMMANDS = new Set(USAGE_ENTRIES.map((e) => e.command).filter((c) => c !== undefined));

/**
 * The usage of one command (`nearlite run --help`): its entries of USAGE, or all of it for a command
 * it does not name.
 */
function usageOf(command: string | undefined): string {
  const own = USAGE_ENTRIES.filter((e) => e.command === command).map((e) => e.text);
  return own.length === 0 ? USAGE : `${USAGE_HEAD!.text}\n${own.join('\n').trimEnd()}\n`;
}

/** Whether the arguments ask for help: `--help` or `-h` before any `--`. */
function asksForHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/** What `nearlite start` takes; `quiet` is every command's. */
const START_FLAGS = new Set(['home', 'rpc-addr', 'quiet']);

const S3_FLAGS = ['s3-endpoint', 's3-region'];
/**
 * The flags each command reads (with `home` and `quiet`): one parser reads them all, so a flag of
 * another command would otherwise be taken and ignored (`run --follow … --lake-out DIR` publishing
 * nothing). `network-addr` is taken and ignored, as near-workspaces and near-sandbox pass it.
 */
const COMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  init: ['chain-id', 'shards', 'num-shards', 'test-seed', 'epoch-length', 'genesis', 'account-id', 'fast'],
  run: [
    'rpc-addr',
    'rpc-prometheus-addr',
    'max-gas-burnt-view',
    'network-addr',
    'block-time',
    'archive',
    'convert-db-kind',
    'sandbox',
    'lake-out',
    ...S3_FLAGS,
  ],
  'run --follow': [
    'follow',
    'upstream-rpc',
    'rpc-addr',
    'rpc-prometheus-addr',
    'max-gas-burnt-view',
    'network-addr',
    'archive',
    'convert-db-kind',
    'store',
    'shard-db',
    ...S3_FLAGS,
  ],
  serve: [
    'rpc-addr',
    'rpc-prometheus-addr',
    'max-gas-burnt-view',
    'network-addr',
    'upstream-rpc',
    'store',
    'shard-db',
  ],
  inspect: ['prefix'],
  'lake-export': ['from', 'to', 'out', 's3-bucket', 's3-prefix', ...S3_FLAGS],
  repair: [],
};

/** Refuses the flags `command` does not read, naming them. */
function onlyOwnFlags(command: string, values: Record<string, unknown>): void {
  const own = new Set(['home', 'quiet', ...(COMMAND_FLAGS[command] ?? [])]);
  const other = Object.keys(values).filter((k) => values[k] !== undefined && !own.has(k));
  if (other.length > 0)
    throw new UsageError(`${command} does not take ${other.map((k) => `--${k}`).join(', ')}`);
}

/**
 * --s3-endpoint, --s3-region and --s3-prefix configure an S3 target or source: given where none is
 * (a directory, an HTTP source, no --lake-out), they would be ignored, so they are refused.
 */
function refuseIdleS3Flags(
  command: string | undefined,
  values: { [k: string]: string | boolean | string[] | undefined },
): void {
  const given = [...S3_FLAGS, 's3-prefix'].filter((f) => values[f] !== undefined);
  if (given.length === 0) return;
  const flags = given.map((f) => `--${f}`).join(', ');
  const isS3 = (v: unknown) => typeof v === 'string' && v.startsWith('s3://');
  if (command === 'lake-export') {
    if (values['s3-bucket'] === undefined)
      throw new UsageError(`${flags} apply to --s3-bucket, and lake-export was given --out`);
    return;
  }
  if (command !== 'run') return;
  if (values.follow !== undefined) {
    if (!isS3(values.follow))
      throw new UsageError(`${flags} apply to an s3:// source, not ${urlForDisplay(String(values.follow))}`);
  } else if (!isS3(values['lake-out'])) {
    throw new UsageError(
      `${flags} apply to --lake-out s3://BUCKET[/PREFIX]${values['lake-out'] === undefined ? ', which was not given' : `, not ${values['lake-out']}`}`,
    );
  }
}

/** A block source named on the command line; a bad spec is a usage error. */
function followSource(spec: string, s3: { endpoint?: string; region?: string }, logger: Logger) {
  // A Lake directory is waited for until a publisher makes it; one missing at start may be a typo.
  const dir = fileSpecDir(spec);
  if (dir && !existsSync(dir))
    logger.warn(`--follow ${spec}: no such directory yet; waiting for blocks to be published there`);
  try {
    // Each failed attempt is logged as it happens; the follow loop logs a fetch that gives up.
    return openSource(spec, {
      ...s3,
      onRetry: (e) =>
        logger.warn(
          `${e.source}${e.height === null ? '' : ` block ${e.height}`}: attempt ${e.attempt} failed, retrying in ${e.delayMs} ms: ${describeSourceError(e.error)}`,
        ),
    });
  } catch (err) {
    if (err instanceof StreamSourceError) throw new UsageError(`--follow: ${err.message}`);
    throw err;
  }
}

interface Running {
  stop(): Promise<void>;
  failed?(): Promise<Error>;
  /** Reads the dynamic config again (`dyn_config.ts`). */
  reloadConfig?(): void;
  /** Settles once the head reaches config.json's `expected_shutdown`, with what to log. */
  expectedShutdown?(): Promise<string>;
}

const never = new Promise<never>(() => {});

/**
 * Starts a node and runs it until SIGINT or SIGTERM, or its head reaches `expected_shutdown` (exit
 * 0), or until `failed` settles (exit 1): a follower whose history can be written no more exits, so
 * its supervisor restarts it, rather than serve a frozen history.
 *
 * The handlers are in place before the start: a process with none is ended by the signal outright,
 * and a supervisor may stop the node the moment it announces its RPC address. A signal during the
 * start stops the node once it is up; a second one, during the start or the stop, ends the process
 * where it is, saying so. SIGHUP reads log_config.json and config.json's `expected_shutdown` again,
 * as nearcore's does (one during the start, once the node is up); it never ends the node.
 */
async function untilSignal(
  logger: Logger,
  start: () => Promise<Running>,
  what = 'following',
): Promise<number> {
  let starting = true;
  let received = false;
  /** Stopping on its own (its expected shutdown, a failure): a signal then is the first, not a second. */
  let stopping = false;
  let resolveSignalled: () => void = () => {};
  const signalled = new Promise<void>((resolve) => {
    resolveSignalled = resolve;
  });
  const onSignal = (sig: string) => {
    if (received) {
      logger.warn(
        `${sig} again while ${starting ? 'starting' : 'stopping'}: exiting now, without a clean stop`,
      );
      process.exit(1);
    }
    received = true;
    if (stopping) logger.info(`${sig}: already stopping`);
    // nearcore's line (neard's RunCmd::run), at its level: alerts written for neard's log match it.
    else
      logger.warn(
        starting
          ? `${sig}, stopping once started... this may take a few minutes.`
          : `${sig}, stopping... this may take a few minutes.`,
      );
    resolveSignalled();
  };
  let node: Running | null = null;
  let hungUpWhileStarting = false;
  const onHangUp = () => {
    if (received || stopping) return;
    if (!node) {
      hungUpWhileStarting = true;
      return;
    }
    logger.info('SIGHUP: reading log_config.json and config.json again');
    node.reloadConfig?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onHangUp);
  // SIGHUP never ends the process, as nearcore's handler stays for its whole run: one after the stop
  // finished is ignored (the watcher stays, so no moment is left without one).
  const off = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.on('SIGHUP', () => {});
    process.off('SIGHUP', onHangUp);
  };
  try {
    node = await start();
  } catch (err) {
    off();
    throw err;
  }
  starting = false;
  if (hungUpWhileStarting) onHangUp();
  const failure = await Promise.race([
    signalled.then(() => null),
    node.failed?.() ?? never,
    (node.expectedShutdown?.() ?? never).then((why) => {
      if (received) return null;
      stopping = true;
      // nearcore's trigger line, then a warning, as its `neard` says it stops, that a warn-level log keeps.
      logger.info(why);
      logger.warn('expected_shutdown reached, stopping... this may take a few minutes.');
      return null;
    }),
  ]);
  if (failure) {
    logger.error(`${what} stopped (${failure.message}): shutting down`);
    stopping = true;
  }
  try {
    await node.stop();
  } finally {
    off();
  }
  logger.info('stopped');
  // Exits here rather than when the event loop drains: Node's teardown closes its signal watchers
  // first, and a SIGHUP then (a reload storm, a closing terminal) would end the process with 129.
  process.exit(failure ? 1 : 0);
}

// Each command imports what it runs when it runs: a producer's start does not load the follower's
// PostgreSQL driver, the front end's or the exporter's code.
function followUntilSignal(opts: FollowOptions): Promise<number> {
  return untilSignal(opts.logger, async () => {
    const { FollowerNode } = await import('./follower_node.js');
    return FollowerNode.start(opts);
  });
}

function serveUntilSignal(opts: ServeOptions): Promise<number> {
  return untilSignal(
    opts.logger,
    async () => {
      const { ServeNode } = await import('./serve_node.js');
      return ServeNode.start(opts);
    },
    'serving',
  );
}

function runUntilSignal(opts: Parameters<typeof NearliteNode.start>[0]): Promise<number> {
  return untilSignal(opts.logger, async () => {
    const { NearliteNode } = await import('./node.js');
    return NearliteNode.start(opts);
  });
}

/**
 * `[--home DIR] view-state dump-state [--stream] [--file PATH] [--account-ids ID]… [--include-validators
 * ID]…`, nearcore's state dump; its other tools are not here.
 */
function viewStateArgs(argv: readonly string[]) {
  const parsed = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      home: { type: 'string' },
      stream: { type: 'boolean' },
      sandbox: { type: 'boolean' },
      file: { type: 'string' },
      'account-ids': { type: 'string', multiple: true },
      'include-validators': { type: 'string', multiple: true },
    },
    strict: false,
  });
  return parsed.positionals[0] === 'view-state' ? parsed : null;
}

async function viewState({
  values,
  positionals,
}: NonNullable<ReturnType<typeof viewStateArgs>>): Promise<number> {
  const [, tool, ...rest] = positionals;
  const known = ['home', 'stream', 'sandbox', 'file', 'account-ids', 'include-validators'];
  const unknown = Object.keys(values).filter((k) => !known.includes(k));
  if (tool !== 'dump-state')
    throw new UsageError(
      "of nearcore's view-state tools only `dump-state [--stream] [--file PATH] [--account-ids ID]… [--include-validators ID]…` is implemented; `nearlite inspect --home DIR …` reads a stopped node's store",
    );
  if (unknown.length > 0) throw new UsageError(`unknown flag --${unknown[0]} for view-state dump-state`);
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}' for view-state dump-state`);
  if (typeof values.home !== 'string') throw new UsageError('view-state needs --home DIR');
  const ids = (flag: 'account-ids' | 'include-validators') => {
    const v = values[flag];
    if (v === undefined) return undefined;
    const list = (Array.isArray(v) ? v : [v]).map(String);
    for (const id of list) {
      const err = accountIdError(id);
      if (err) throw new UsageError(`--${flag} ${id}: ${err}`);
    }
    return list;
  };
  if (values.file !== undefined && typeof values.file !== 'string')
    throw new UsageError('--file needs a path');
  const accountIds = ids('account-ids');
  const includeValidators = ids('include-validators');
  const { dumpState } = await import('./state_dump.js');
  const dump = await dumpState(values.home, {
    stream: values.stream === true,
    ...(typeof values.file === 'string' ? { file: values.file } : {}),
    ...(accountIds ? { accountIds } : {}),
    ...(includeValidators ? { includeValidators } : {}),
  });
  for (const file of dump.files) process.stdout.write(`wrote ${file}\n`);
  if (dump.yieldsLeftOut > 0)
    process.stderr.write(
      `${dump.yieldsLeftOut} pending yields (PromiseYield receipts) have no genesis record and were left out\n`,
    );
  return 0;
}

export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    if (argv[0] === 'help' && argv[1] !== undefined && !COMMANDS.has(argv[1])) {
      process.stderr.write(`nearlite: unknown command '${argv[1]}'\n\n${USAGE}`);
      return 2;
    }
    process.stdout.write(argv[0] === 'help' ? usageOf(argv[1]) : USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  if (asksForHelp(argv)) {
    process.stdout.write(usageOf(argv.find((a) => COMMANDS.has(a))));
    return 0;
  }
  // nearcore's state viewer has flags of its own: near-sandbox's library runs
  // `--home DIR view-state dump-state --stream` for its dump().
  const viewStateCommand = viewStateArgs(argv);
  if (viewStateCommand) return viewState(viewStateCommand);
  // near-workspaces runs `near-sandbox --home DIR init`: flags may come before the command.
  const { values, positionals } = parseCommandLine(argv);
  const command = positionals[0];
  if (command !== undefined && command !== 'start') {
    // A producer's run given a follower's flags: say what they need.
    if (command === 'run' && values.follow === undefined) {
      if (values['upstream-rpc'] !== undefined) throw new UsageError('--upstream-rpc needs --follow SOURCE');
      if (values.store !== undefined || values['shard-db'] !== undefined)
        throw new UsageError('--store needs --follow SOURCE (or the serve command)');
    }
    if (command in COMMAND_FLAGS)
      onlyOwnFlags(command === 'run' && values.follow !== undefined ? 'run --follow' : command, values);
  }
  if (values['rpc-addr'] !== undefined) hostPortFlag(values['rpc-addr'], '--rpc-addr');
  // Only inspect takes arguments after its command (what to read); elsewhere one is a mistake.
  if (command !== 'inspect' && positionals.length > 1)
    throw new UsageError(`unexpected argument '${positionals[1]}'`);
  refuseIdleS3Flags(command, values);
  // The commands that print plain text (`inspect`, `lake-export`, `repair`) print a warning as one line
  // of it; those that log route it into the log (below).
  routeProcessWarnings((line) => process.stderr.write(`warning: ${line}\n`));
  if (command === 'inspect') {
    if (!values.home) throw new UsageError('inspect needs --home DIR');
    const { inspect } = await import('./inspect.js');
    await inspect(
      values.home,
      [...positionals.slice(1), ...(values.prefix !== undefined ? ['--prefix', values.prefix] : [])],
      (s) => process.stdout.write(s),
    );
    return 0;
  }
  const s3 = {
    ...(values['s3-endpoint'] ? { endpoint: values['s3-endpoint'] } : {}),
    ...(values['s3-region'] ? { region: values['s3-region'] } : {}),
  };
  if (command === 'lake-export') {
    if (!values.home) throw new UsageError('lake-export needs --home DIR');
    if ((values.out === undefined) === (values['s3-bucket'] === undefined))
      throw new UsageError('lake-export needs one of --out DIR or --s3-bucket NAME');
    const prefix = (values['s3-prefix'] ?? '').replace(/^\/+|\/+$/g, '');
    const target: LakeTarget = {
      target: values.out ?? `s3://${values['s3-bucket']}${prefix ? `/${prefix}` : ''}`,
      s3,
    };
    const from = intFlag(values.from, 'from');
    const to = intFlag(values.to, 'to');
    const { lakeExport } = await import('./lake.js');
    await lakeExport(
      values.home,
      target,
      { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) },
      (line) => process.stdout.write(`${line}\n`),
    );
    return 0;
  }
  if (command === 'repair') {
    if (!values.home) throw new UsageError('repair needs --home DIR');
    const { repair } = await import('./repair.js');
    await repair(values.home, (line) => process.stdout.write(`${line}\n`));
    return 0;
  }
  const logger = stderrLogger(values.quiet ?? false);
  routeProcessWarnings((line) => logger.warn(line));
  logFatalErrors(logger);
  const store = storeFromFlags(values.store, values['shard-db']);
  switch (command) {
    case 'init': {
      if (!values.home) throw new UsageError('init needs --home DIR');
      // As nearcore's init takes it (a non-empty string), rather than a random id in its place.
      if (values['chain-id'] === '') throw new UsageError('--chain-id must not be empty');
      const { created } = initHome({
        home: values.home,
        ...(values['chain-id'] ? { chainId: values['chain-id'] } : {}),
        ...(values.shards ? { shards: intFlag(values.shards, 'shards')! } : {}),
        ...(values['num-shards'] ? { shards: intFlag(values['num-shards'], 'num-shards')! } : {}),
        ...(values['test-seed'] !== undefined ? { testSeed: values['test-seed'] } : {}),
        ...(values['epoch-length'] ? { epochLength: intFlag(values['epoch-length'], 'epoch-length')! } : {}),
        ...(values.genesis ? { genesisFile: values.genesis } : {}),
        ...(values['account-id'] ? { accountId: values['account-id'] } : {}),
        ...(values.fast ? { fast: true } : {}),
      });
      for (const f of created) logger.info(`wrote ${f}`);
      return 0;
    }
    case 'serve': {
      if (!values.home)
        throw new UsageError(
          "serve needs --home DIR (the chain's genesis.json and a node key: 'nearlite init --home DIR --genesis FILE' writes both)",
        );
      return serveUntilSignal({
        home: values.home,
        logger,
        ...(store ? { store } : {}),
        ...upstreamFlag(values['upstream-rpc']),
        ...rpcFlags(values),
      });
    }
    case 'run': {
      if (!values.home) throw new UsageError('run needs --home DIR');
      if (values.follow !== undefined) {
        return followUntilSignal({
          home: values.home,
          logger,
          source: followSource(values.follow, s3, logger),
          ...upstreamFlag(values['upstream-rpc']),
          ...rpcFlags(values),
          ...(values.archive ? { archive: true } : {}),
          ...(values['convert-db-kind'] ? { convertDbKind: true } : {}),
          ...(store ? { store } : {}),
        });
      }
      const blockTimeMs = intFlag(values['block-time'], 'block-time');
      return runUntilSignal({
        home: values.home,
        logger,
        ...rpcFlags(values),
        ...(blockTimeMs !== undefined ? { blockTimeMs } : {}),
        ...(values.archive ? { archive: true } : {}),
        ...(values['convert-db-kind'] ? { convertDbKind: true } : {}),
        ...(values.sandbox ? { sandbox: true } : {}),
        ...(values['lake-out'] !== undefined ? { lakeOut: { target: values['lake-out'], s3 } } : {}),
      });
    }
    case 'start': {
      // `start` is the one-command local sandbox: a flag of `run` given here would be silently
      // ignored (a `--follow` would produce blocks instead of following), so it is refused.
      const other = Object.keys(values).filter((k) => !START_FLAGS.has(k));
      if (other.length > 0) {
        throw new UsageError(
          `start takes --home and --rpc-addr only, not ${other.map((k) => `--${k}`).join(', ')}: use 'nearlite run --home DIR' with those`,
        );
      }
      const home = values.home ?? join(process.cwd(), '.nearlite');
      if (!existsSync(homeFiles(home, homeConfig(home)).genesis)) {
        initHome({ home, chainId: 'localnet' });
        logger.info(`initialised ${home}`);
      }
      return runUntilSignal({
        home,
        logger,
        rpcAddr: values['rpc-addr'] ?? '127.0.0.1:3030',
        sandbox: true,
      });
    }
    default:
      throw new UsageError(`unknown command '${command}'\n\n${USAGE}`);
  }
}
