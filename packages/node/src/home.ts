// The node home directory, laid out like nearcore's: genesis.json, config.json, validator_key.json,
// node_key.json and the database under data/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import {
  ChainReader,
  generateKeyFile,
  type KeyFile,
  keyFileFromTestSeed,
  loadValidGenesis,
  makeLocalnetGenesis,
} from '@nearlite/chain';
import { accountIdError } from '@nearlite/primitives';
import { PROTOCOL_VERSION } from '@nearlite/runtime';
import { ConfigError, configFileJson, DEFAULT_CONFIG, loadConfig, type NodeConfig } from './config.js';
import { readKeyFile } from './key_files.js';
import { copyFileWhole, writeFileWhole } from './write_whole.js';

// The version a fresh genesis reports is the one whose parameters the runtime implements.
export { PROTOCOL_VERSION };

export interface InitOptions {
  readonly home: string;
  readonly chainId?: string;
  readonly shards?: number;
  readonly epochLength?: number;
  readonly genesisFile?: string;
  readonly accountId?: string;
  /**
   * nearcore's `init --fast` for a local chain: blocks every 120 to 500 ms
   * (FAST_MIN/MAX_BLOCK_PRODUCTION_DELAY) and epochs of 60 blocks (FAST_EPOCH_LENGTH) unless
   * `epochLength` says otherwise.
   */
  readonly fast?: boolean;
  /** nearcore's `init --test-seed`: the validator key made from this text (TESTING ONLY). */
  readonly testSeed?: string;
}

/** nearcore's FAST_MIN_BLOCK_PRODUCTION_DELAY, FAST_MAX_BLOCK_PRODUCTION_DELAY and FAST_EPOCH_LENGTH. */
export const FAST_INIT = { blockTimeMs: 120, maxBlockProductionDelayMs: 500, epochLength: 60 } as const;

export const homePaths = (home: string) => ({
  genesis: join(home, 'genesis.json'),
  config: join(home, 'config.json'),
  validatorKey: join(home, 'validator_key.json'),
  nodeKey: join(home, 'node_key.json'),
  /** The database's default place; config.json's `store.path` may name another (`dataDir`). */
  data: join(home, 'data'),
});

/**
 * The home's files as its config.json names them (nearcore's `genesis_file`, `validator_key_file`,
 * `node_key_file` and `store.path`); `homePaths` are their default names, which `init` writes.
 */
export function homeFiles(
  home: string,
  c: Pick<NodeConfig, 'genesisFile' | 'validatorKeyFile' | 'nodeKeyFile' | 'storePath'>,
) {
  return {
    config: join(home, 'config.json'),
    genesis: inHome(home, c.genesisFile),
    validatorKey: inHome(home, c.validatorKeyFile),
    nodeKey: inHome(home, c.nodeKeyFile),
    data: dataDir(home, c),
  };
}

/** The home's LevelDB: config.json's `store.path` (relative to the home, or absolute), `data` by default. */
export function dataDir(home: string, c: Pick<NodeConfig, 'storePath'>): string {
  return inHome(home, c.storePath ?? 'data');
}

/** A path config.json gives: as it is when absolute, in the home otherwise (as nearcore joins it). */
const inHome = (home: string, path: string) => (isAbsolute(path) ? path : join(home, path));

/** The embeddable reader over a stopped node's home, where its config.json puts its files. */
export function openHomeReader(home: string): Promise<ChainReader> {
  // The reader takes the files' places relative to the home it is given: an absolute home, so a
  // relative `--home` is not joined twice.
  const at = resolve(home);
  const f = homeFiles(at, homeConfig(at));
  return ChainReader.open(at, { dataDir: f.data, genesisFile: f.genesis, withoutChain: true });
}

/**
 * config.json of the home. A home without one that holds a genesis has lost it: refused, as nearcore
 * refuses to start without its config, rather than run on defaults nobody chose. A home `init` has
 * not made takes the defaults, and is told where it is used that it needs `init`.
 */
export function homeConfig(home: string, warn?: (message: string) => void): NodeConfig {
  const { config } = homePaths(home);
  if (existsSync(config)) {
    const loaded = loadConfig(config);
    // A starting node says what nearcore's would of the fields nobody knows.
    if (warn && loaded.unrecognisedWarning) warn(loaded.unrecognisedWarning);
    return loaded;
  }
  if (existsSync(join(home, DEFAULT_CONFIG.genesisFile)))
    throw new ConfigError(
      `Failed to read config from ${config}: the file is missing (\`nearlite init\` writes it)`,
    );
  return DEFAULT_CONFIG;
}

/**
 * Where the genesis records are when config.json names their own file (nearcore's
 * `genesis_records_file`): in the home, or as it is when absolute, like the home's other files.
 */
export function genesisRecordsPath(home: string, c: Pick<NodeConfig, 'genesisRecordsFile'>): string | null {
  return c.genesisRecordsFile === null ? null : inHome(home, c.genesisRecordsFile);
}

export class HomeError extends Error {
  override readonly name = 'HomeError';
}

function randomChainId(): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += chars[Math.floor(Math.random() * chars.length)];
  return `test-chain-${s}`;
}

/**
 * What `run` would refuse, refused before anything is written: nearcore's init parses `--account-id`
 * as an AccountId and reads `--genesis` as a genesis, so a bad one never becomes a home.
 */
function checkInitOptions(o: InitOptions): void {
  if (o.accountId !== undefined) {
    const err = accountIdError(o.accountId);
    if (err !== null) throw new HomeError(`--account-id ${JSON.stringify(o.accountId)} is invalid: ${err}`);
  }
  if (o.genesisFile !== undefined) {
    if (!existsSync(o.genesisFile)) throw new HomeError(`--genesis ${o.genesisFile}: no such file`);
    loadValidGenesis(o.genesisFile);
    return;
  }
  if (o.shards !== undefined && (!Number.isInteger(o.shards) || o.shards < 1 || o.shards > 64))
    throw new HomeError('--shards must be 1 to 64');
  if (o.epochLength !== undefined && (!Number.isInteger(o.epochLength) || o.epochLength < 1))
    throw new HomeError('--epoch-length must be a positive integer');
}

/**
 * A home that has a config.json is refused, as `neard init` refuses it, naming the chain it holds:
 * a second init with other flags would otherwise leave the first chain in place without a word.
 */
function refuseInitialisedHome(home: string, config: string): void {
  if (!existsSync(config)) return;
  const genesis = homeFiles(home, homeConfig(home)).genesis;
  let chainId: unknown;
  try {
    chainId = (JSON.parse(readFileSync(genesis, 'utf8')) as { chain_id?: unknown }).chain_id;
  } catch (err) {
    throw new HomeError(`Failed to read genesis config ${genesis}: ${(err as Error).message}`);
  }
  throw new HomeError(`Config is already downloaded to ‘${genesis}’ with chain-id ‘${String(chainId)}’.`);
}

/**
 * Writes a new home. A validator or node key already there is kept (`neard init` loads it); a home
 * with a config.json is refused.
 */
export function initHome(o: InitOptions): { created: string[] } {
  const p = homePaths(o.home);
  checkInitOptions(o);
  refuseInitialisedHome(o.home, p.config);
  // neard's init writes NEAR's own genesis for these; a local chain under their names would mislead
  // every client that tells networks apart by chain id.
  if (!o.genesisFile && (o.chainId === 'mainnet' || o.chainId === 'testnet') && !existsSync(p.genesis))
    throw new HomeError(
      `--chain-id ${o.chainId} names NEAR's network, whose genesis init does not make: ` +
        `pass its genesis.json with --genesis FILE (a follower's home does), or choose another chain id`,
    );
  mkdirSync(o.home, { recursive: true });
  const created: string[] = [];
  const accountId = o.accountId ?? 'test.near';
  let validatorKey: KeyFile;
  if (existsSync(p.validatorKey)) {
    validatorKey = readKeyFile(p.validatorKey) as unknown as KeyFile;
    // nearcore's generate_or_load_key: a key kept for another account is not quietly reused.
    if (o.accountId !== undefined && validatorKey.account_id !== o.accountId)
      throw new HomeError(
        `‘${p.validatorKey}’ contains key for ${validatorKey.account_id} but expecting key for ${o.accountId}`,
      );
  } else {
    validatorKey =
      o.testSeed === undefined ? generateKeyFile(accountId) : keyFileFromTestSeed(accountId, o.testSeed);
    writeFileWhole(p.validatorKey, `${JSON.stringify(validatorKey, null, 2)}\n`, 0o600);
    created.push(p.validatorKey);
  }
  if (!existsSync(p.nodeKey)) {
    writeFileWhole(p.nodeKey, `${JSON.stringify(generateKeyFile('node'), null, 2)}\n`, 0o600);
    created.push(p.nodeKey);
  }
  if (!existsSync(p.genesis)) {
    if (o.genesisFile) {
      copyFileWhole(o.genesisFile, p.genesis);
    } else {
      const shards = o.shards ?? 1;
      const epochLength = o.epochLength ?? (o.fast ? FAST_INIT.epochLength : 500);
      const genesis = makeLocalnetGenesis({
        chainId: o.chainId ?? randomChainId(),
        numShards: shards,
        epochLength,
        validatorAccountId: validatorKey.account_id,
        validatorPublicKey: validatorKey.public_key,
        protocolVersion: PROTOCOL_VERSION,
      });
      writeFileWhole(p.genesis, `${JSON.stringify(genesis, null, 2)}\n`);
    }
    created.push(p.genesis);
  }
  // The config last: a home with one is initialised, so an init cut short can be run again.
  if (!existsSync(p.config)) {
    const config = o.fast
      ? {
          ...DEFAULT_CONFIG,
          blockTimeMs: FAST_INIT.blockTimeMs,
          maxBlockProductionDelayMs: FAST_INIT.maxBlockProductionDelayMs,
        }
      : DEFAULT_CONFIG;
    writeFileWhole(p.config, `${JSON.stringify(configFileJson(config), null, 2)}\n`);
    created.push(p.config);
  }
  return { created };
}
