import { Account, JsonRpcProvider, KeyPair, KeyPairSigner, type KeyPairString } from 'near-api-js';
import type t from 'tap';
import {
  editConfig,
  editRpc,
  initHome,
  type RunningNode,
  readKeyFile,
  spawnNearlite,
  startNode,
  waitForHeight,
} from './node.js';
import { tempDir } from './tmp.js';

export interface LocalChain {
  readonly home: string;
  readonly key: ReturnType<typeof readKeyFile>;
  readonly node: RunningNode;
  readonly provider: JsonRpcProvider;
  /** test.near, signing with the validator key. */
  readonly root: Account;
}

export async function localChain(
  test: typeof t,
  opts: {
    shards?: number;
    blockTimeMs?: number;
    epochLength?: number;
    sandbox?: boolean;
    archive?: boolean;
    /** Merged into config.json's `rpc` section before the node starts. */
    rpc?: Record<string, unknown>;
    /** Merged into config.json's top level before the node starts. */
    config?: Record<string, unknown>;
    /** More `nearlite run` flags. */
    args?: readonly string[];
  } = {},
): Promise<LocalChain> {
  const home = tempDir(test);
  initHome(home, [
    ...(opts.shards ? ['--shards', String(opts.shards)] : []),
    ...(opts.epochLength ? ['--epoch-length', String(opts.epochLength)] : []),
  ]);
  const key = readKeyFile(home);
  if (opts.rpc) editRpc(home, opts.rpc);
  if (opts.config) editConfig(home, (c) => ({ ...c, ...opts.config }));
  const node = await startNode(home, [
    '--block-time',
    String(opts.blockTimeMs ?? 50),
    ...(opts.sandbox ? ['--sandbox'] : []),
    ...(opts.archive ? ['--archive'] : []),
    ...(opts.args ?? []),
  ]);
  test.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const provider = new JsonRpcProvider({ url: node.url });
  const root = new Account('test.near', provider, key.secret_key as KeyPairString);
  return { home, key, node, provider, root };
}

/**
 * A producer stopped and started again from its home on the same address, with a block every 2 s and
 * `args`: once a test has made the blocks it compares, a producer at tens of milliseconds a block
 * would add empty ones, which every follower would ingest while it is compared, for nothing. The
 * followers of its address go on from where they were.
 */
export async function onSlowClock(
  test: typeof t,
  producer: Pick<LocalChain, 'home' | 'node'>,
  args: readonly string[] = [],
): Promise<RunningNode> {
  const addr = new URL(producer.node.url).host;
  const code = await producer.node.stop();
  if (code !== 0) throw new Error(`the producer stopped with ${code}:\n${producer.node.logs()}`);
  const node = await spawnNearlite([
    'run',
    '--home',
    producer.home,
    '--rpc-addr',
    addr,
    '--block-time',
    '2000',
    ...args,
  ]);
  test.teardown(() => node.stop());
  return node;
}

/** A new account made by test.near with `balance` yoctoNEAR and a key of its own, `code` deployed. */
export async function deployedAccount(
  c: Pick<LocalChain, 'provider' | 'root'>,
  accountId: string,
  code: Uint8Array,
  balance: bigint,
): Promise<Account> {
  const kp = KeyPair.fromRandom('ed25519');
  await c.root.createAccount({
    newAccountId: accountId,
    publicKey: kp.getPublicKey(),
    nearToTransfer: balance,
  });
  const account = new Account(accountId, c.provider, new KeyPairSigner(kp));
  await account.deployContract(code);
  return account;
}
