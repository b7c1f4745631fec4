// A running node and the chain package, given the same genesis and the same transactions, leave the
// same accounts, and while no epoch ends the same total supply. The node takes its transactions over
// JSON-RPC: signature checks on its worker pool, admission on the RPC thread, chunks made ahead on
// the chain thread, its own block timer; the chain in this process takes them straight into its
// pool and makes a block when asked. Everything between the two may differ but what the
// transactions charge and change: the waves (packages/chain/test/commuting_waves.ts) commute, so
// neither the blocks they land in nor the order their receipts meet in changes what they leave.
// The contracts touch no storage: nearcore charges a write by the trie nodes on its key's path in
// the state the chunk starts from, so two writes in one block and the same two in consecutive
// blocks are charged differently.
// Once with no epoch ending, once with epochs of ten blocks and GC collecting behind the head all
// through the run. An epoch's end mints by the epoch's length in seconds, which the node's block
// timer and the chain's own pace make differ, so there the validator's and the treasury's balances
// are left out, and each chain's supply is checked against the money its state holds instead (with
// a treasury that is no validator: when the treasury is also the validator, nearcore mints its share
// and pays it to no one). Before the node stops, its views of every account and key are checked
// against the chain's state too, and, while no epoch ends, so are those of two followers of the node,
// one keeping its history in LevelDB and one in PostgreSQL (both must answer every height and
// transaction as the node does), and the light-client proof of every outcome the waves made is
// verified against a final head.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChainReader, type Signer } from '@nearlite/chain';
import {
  type Action,
  base58Decode,
  base58Encode,
  encodeSignedTransaction,
  formatPublicKey,
  KeyType,
  parsePublicKey,
  type Transaction,
  toBase64,
  toHex,
  transactionHash,
} from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import t from 'tap';
import {
  accountState,
  accountStateOf,
  ChainTwin,
  commutingWaves,
  type Op,
  send,
  settle,
  stateDifferences,
  type Twin,
} from '../packages/chain/test/commuting_waves.js';
import { moneyAt, USERS, withUsers } from '../packages/chain/test/four_shards.js';
import { relay } from '../packages/chain/test/relay_contract.js';
import { compareHistory, compareTransactions } from './helpers/follow_compare.js';
import { type ExecutionProof, validateExecutionProof } from './helpers/light_client.js';
import {
  editConfig,
  initHome,
  type RunningNode,
  startFollower,
  startNode,
  waitForHeight,
} from './helpers/node.js';
import { startPostgres, storeFlags } from './helpers/postgres.js';
import { openProtocol86Chain } from './helpers/protocol86_chain.js';
import { supplyAtHead } from './helpers/supply.js';
import { tempDir } from './helpers/tmp.js';
import type { Workload } from './helpers/workload.js';

const WAVES = Number(process.env.NODE_WAVES ?? 12);
const SHARDS = [0, 1, 2, 3];

/** The node as a twin: what it signs is sent over JSON-RPC once the wave is built (`flush`). */
class NodeTwin implements Twin {
  readonly nonces = new Map<string, bigint>();
  private readonly keys = new Map<string, bigint>();
  private head: { height: number; hash: Uint8Array } = { height: 0, hash: new Uint8Array(32) };
  private queued: { hash: string; signerId: string; b64: string }[] = [];
  /** What `tx` answered at FINAL for each transaction sent, in order. */
  readonly answers: FinalOutcome[] = [];

  constructor(
    readonly name: string,
    readonly node: RunningNode,
    readonly signer: Signer,
  ) {}

  get own() {
    return this.signer.publicKey;
  }

  keyNonce(accountId: string): bigint | undefined {
    return this.keys.get(accountId);
  }

  height(): number {
    return this.head.height;
  }

  /** Reads the final head and the nonces of the validator's key on `accounts` from the node. */
  async refresh(accounts: Iterable<string>): Promise<void> {
    const { body } = await this.node.rpc<{ header: { height: number; hash: string } }>('block', {
      finality: 'final',
    });
    this.head = { height: body.result!.header.height, hash: base58Decode(body.result!.header.hash) };
    this.keys.clear();
    for (const id of accounts) {
      const key = await this.node.rpc<{ nonce: number }>('query', {
        request_type: 'view_access_key',
        finality: 'final',
        account_id: id,
        public_key: formatPublicKey(this.own),
      });
      if (key.body.result) this.keys.set(id, BigInt(key.body.result.nonce));
    }
  }

  submit(signerId: string, receiverId: string, nonce: bigint, actions: readonly Action[]): void {
    const tx: Transaction = {
      signerId,
      publicKey: this.own,
      nonce,
      receiverId,
      blockHash: this.head.hash,
      actions,
    };
    const hash = transactionHash(tx);
    const bytes = encodeSignedTransaction(tx, this.signer.sign(hash));
    this.queued.push({ hash: base58Encode(hash), signerId, b64: toBase64(bytes) });
  }

  /** Sends what the wave signed, then waits until each transaction and all it caused is final. */
  async flush(): Promise<string[]> {
    const queued = this.queued;
    this.queued = [];
    const errors: string[] = [];
    for (const q of queued) {
      const { body } = await this.node.rpc('send_tx', { signed_tx_base64: q.b64, wait_until: 'NONE' });
      if (body.error) errors.push(`${q.signerId}: ${JSON.stringify(body.error)}`);
    }
    for (const q of queued) {
      const { body } = await this.node.rpc<FinalOutcome>('tx', {
        tx_hash: q.hash,
        sender_account_id: q.signerId,
        wait_until: 'FINAL',
      });
      if (body.error) errors.push(`${q.signerId} ${q.hash}: ${JSON.stringify(body.error)}`);
      else this.answers.push(body.result!);
    }
    return errors;
  }
}

type ProvedOutcome = ExecutionProof['outcome_proof'];

/** The parts of a FINAL `tx` answer the proofs are checked against. */
interface FinalOutcome {
  transaction: { hash: string; signer_id: string };
  transaction_outcome: ProvedOutcome;
  receipts_outcome: ProvedOutcome[];
}

/**
 * Where the node's light-client proofs of every outcome the waves made (each transaction's and
 * each receipt's) fail against a final head's block merkle root, or prove another outcome than the
 * transaction's own answer gave: delegate actions, relayed calls, refunds and account creations,
 * on every shard.
 */
async function proofFailures(node: RunningNode, answers: readonly FinalOutcome[]): Promise<string[]> {
  // A head past every carrier (the block after an outcome's): nearcore proves no block under a root
  // that does not hold it, and a carrier that is the head itself gets an empty path.
  type Header = { height: number; hash: string; block_merkle_root: string };
  const at = async (finality: string) =>
    (await node.rpc<{ header: Header }>('block', { finality })).body.result!.header;
  await waitForHeight(node, (await at('optimistic')).height + 2, 30_000, 'final');
  const head = await at('final');
  const root = base58Decode(head.block_merkle_root);
  const out: string[] = [];
  for (const a of answers) {
    const cases: [Record<string, string>, ProvedOutcome][] = [
      [
        { type: 'transaction', transaction_hash: a.transaction.hash, sender_id: a.transaction.signer_id },
        a.transaction_outcome,
      ],
      ...a.receipts_outcome.map((r): [Record<string, string>, ProvedOutcome] => [
        { type: 'receipt', receipt_id: r.id, receiver_id: r.outcome.executor_id },
        r,
      ]),
    ];
    for (const [params, answered] of cases) {
      const p = await node.rpc<ExecutionProof>('EXPERIMENTAL_light_client_proof', {
        ...params,
        light_client_head: head.hash,
      });
      const id = params.transaction_hash ?? params.receipt_id;
      if (!p.body.result) {
        out.push(`${id}: ${JSON.stringify(p.body.error)}`);
        continue;
      }
      try {
        validateExecutionProof(p.body.result, root);
      } catch (e) {
        out.push(`${id}: ${(e as Error).message}`);
      }
      // The proof names its carrier block, the answer the block that ran the outcome.
      const { block_hash: _carrier, ...proved } = p.body.result.outcome_proof;
      const { block_hash: _ran, ...fromAnswer } = answered;
      if (JSON.stringify(proved) !== JSON.stringify(fromAnswer))
        out.push(`${id}: another outcome than answered`);
    }
  }
  return out;
}

/** The validator and, in the variant whose epochs end, the protocol treasury: rewards go to them. */
const VALIDATOR = 'test.near';
const TREASURY = 'near';

const VARIANTS = [
  { name: 'no epoch ends', epochLength: 100_000, gcEpochs: 5 },
  // GC keeps three epochs of 10 blocks: it collects blocks, chunks and trie nodes all through the run.
  { name: 'epochs of 10 blocks, GC keeping 3', epochLength: 10, gcEpochs: 3 },
];

for (const variant of VARIANTS)
  t.test(`a node and the chain package leave the same accounts (${variant.name})`, (t) =>
    sameAccounts(t, variant),
  );

async function sameAccounts(t: Tap.Test, variant: (typeof VARIANTS)[number]): Promise<void> {
  const seed = Number(process.env.NODE_SEED ?? 20261205);
  t.comment(`seed ${seed} (NODE_SEED reruns it)`);
  const relayCode = await relay('return');
  const { raw, signer, key } = withUsers([], 4, variant.epochLength);
  const epochs = variant.epochLength < 1000;
  if (epochs)
    (raw as typeof raw & { protocol_treasury_account: string }).protocol_treasury_account = TREASURY;

  const home = tempDir(t);
  initHome(home);
  writeFileSync(join(home, 'genesis.json'), JSON.stringify(raw));
  writeFileSync(join(home, 'validator_key.json'), JSON.stringify(key));
  // The server first: it stops after the followers that write to it, which stop in their teardowns.
  const pg = epochs ? null : await startPostgres();
  if (pg) t.teardown(() => pg.stop());
  editConfig(home, (c) => ({ ...c, gc_num_epochs_to_keep: variant.gcEpochs }));
  const node = await startNode(home, ['--block-time', '40']);
  let stopped = false;
  t.teardown(async () => {
    if (!stopped) await node.stop();
  });
  const chain = new ChainTwin(
    'chain',
    await openProtocol86Chain(raw, signer, await Store.memory(), { vm: true }),
    signer,
  );
  const remote = new NodeTwin('node', node, signer);
  // Followers of the node, which store what the node's block stream says rather than running it:
  // one in LevelDB, one in PostgreSQL (a meta database and one a shard). Only of the node that keeps
  // its blocks: one that keeps three epochs of ten blocks keeps about a second of them, and a
  // follower a second behind would find its next block gone.
  const followers: [string, RunningNode][] = [];
  if (pg) {
    followers.push(['leveldb follower', await startFollower(home, node.url)]);
    const store = await storeFlags(pg, SHARDS);
    followers.push(['postgres follower', await startFollower(home, node.url, store, 'follower-pg')]);
  }
  for (const [, f] of followers) t.teardown(() => f.stop());

  const deploy: Op[] = USERS.map((id) => ({
    signerId: id,
    receiverId: id,
    actions: () => [{ type: 'DeployContract', code: relayCode }],
  }));
  const run = async (ops: readonly Op[], wave: string) => {
    await remote.refresh(ownKeyHolders(chain));
    for (const twin of [chain, remote]) for (const op of ops) send(twin, op);
    await settle(chain);
    const errors = await remote.flush();
    t.same(errors, [], `${wave}: the node took and ran every transaction`);
  };
  await run(deploy, 'deploy');
  const waves = commutingWaves(seed, relayCode);
  for (let wave = 0; wave < WAVES; wave++) {
    await run(waves.next(), `wave ${wave}`);
    waves.settled();
  }

  const expected = accountState(chain);
  const supply = chain.chain.headHeader().rest.totalSupply;
  const money = moneyAt(chain.chain, chain.chain.head().hash);
  t.same(
    await viewMismatches(node, expected, signer),
    [],
    "the node's views say what the chain's state holds",
  );
  if (followers.length > 0) {
    const final = (await node.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body
      .result!;
    for (const [name, f] of followers) {
      await waitForHeight(f, final.header.height, 30_000, 'final');
      t.same(
        await viewMismatches(f, expected, signer),
        [],
        `and so do the ${name}'s, from the node's block stream`,
      );
    }
    // And every height's block, chunks and changes, samples of every read method, and every
    // transaction's status and receipts, byte for byte as the node answers them.
    const w = wavesWorkload(expected, signer);
    const history = await compareHistory(t, node, followers, w, SHARDS, final.header.height, seed, false);
    const txCalls = await compareTransactions(t, node, followers, history.txs);
    t.ok(history.txs.length > 50, `the followers answered as the node: ${history.compared + txCalls} calls`);
  }
  if (!epochs) {
    const outcomes = remote.answers.reduce((n, a) => n + 1 + a.receipts_outcome.length, 0);
    t.same(
      await proofFailures(node, remote.answers),
      [],
      `light-client proofs of all ${outcomes} outcomes verify against a final head`,
    );
  }
  stopped = true;
  await node.stop();
  const reader = await ChainReader.open(home);
  t.teardown(() => reader.store.close());
  const got = accountStateOf(
    reader.layout.shardIds.map((shardId) => reader.shardState(shardId)),
    signer.publicKey,
  );
  const differences = stateDifferences(
    expected,
    got,
    ['chain', 'node'],
    (k) => !epochs || (k !== `account ${VALIDATOR}` && k !== `account ${TREASURY}`),
  );
  t.same(differences, [], 'every account, key, contract and record is the same');
  const head = reader.blockByHeight(reader.head()!.height)!;
  if (!epochs) t.equal(head.rest.totalSupply, supply, 'and so is the total supply');
  else {
    const node = supplyAtHead(reader);
    t.equal(node.held, node.expected, "the node's supply is the money its state holds");
    t.equal(money, supply, "and so is the chain's");
  }
  if (epochs) {
    t.ok(reader.tail() > 1, `GC collected the blocks below ${reader.tail()}`);
    // A collected block's header is kept; its changes are not, which is not the same as none.
    const collected = reader.blockByHeight(reader.tail() - 1)!;
    await t.rejects(reader.stateChanges(collected.hash), {
      name: 'RangeError',
      message: /below the GC tail/,
    });
  }
  t.comment(`${waves.calls} relayed calls, ${expected.size} rows compared`);
  t.ok(waves.calls > 5, 'calls were relayed between contracts');
}

/**
 * Where the node's `view_account` and `view_access_key_list` (final) differ from the rows of an
 * accountState: balances, storage, local code, and each key's permission as nearcore's views write
 * them. The validator and the treasury are left out (an epoch's end pays them).
 */
async function viewMismatches(
  node: RunningNode,
  state: ReadonlyMap<string, string>,
  signer: Signer,
): Promise<string[]> {
  const out: string[] = [];
  const own = formatPublicKey(signer.publicKey);
  for (const [row, value] of state) {
    const [kind, accountId] = row.split(' ') as [string, string];
    if (kind !== 'account' || accountId === VALIDATOR || accountId === TREASURY) continue;
    const a = JSON.parse(value) as { amount: string; locked: string; storageUsage: string; codeHash: string };
    const view = await node.rpc<Record<string, unknown>>('query', {
      request_type: 'view_account',
      finality: 'final',
      account_id: accountId,
    });
    const v = view.body.result ?? {};
    const want = {
      amount: a.amount,
      locked: a.locked,
      storage_usage: Number(a.storageUsage),
      code_hash: base58Encode(Buffer.from(a.codeHash, 'hex')),
    };
    const got = {
      amount: v.amount,
      locked: v.locked,
      storage_usage: v.storage_usage,
      code_hash: v.code_hash,
    };
    if (JSON.stringify(got) !== JSON.stringify(want))
      out.push(`${accountId}: view_account ${JSON.stringify(got)}, state ${JSON.stringify(want)}`);
    const keys = await node.rpc<{ keys: { public_key: string; access_key: { permission: unknown } }[] }>(
      'query',
      { request_type: 'view_access_key_list', finality: 'final', account_id: accountId },
    );
    const viewed = new Map(
      (keys.body.result?.keys ?? []).map((k) => [
        k.public_key === own ? 'own' : toHex(parsePublicKey(k.public_key).data),
        canonical(k.access_key.permission),
      ]),
    );
    const stored = new Map(
      [...state]
        .filter(([k]) => k.startsWith(`key ${accountId} `))
        .map(([k, p]) => [k.split(' ')[2]!, canonical(permissionView(JSON.parse(p)))]),
    );
    for (const pk of new Set([...viewed.keys(), ...stored.keys()]))
      if (viewed.get(pk) !== stored.get(pk))
        out.push(`${accountId} key ${pk}: view ${viewed.get(pk)}, state ${stored.get(pk)}`);
  }
  return out;
}

/** nearcore's AccessKeyPermissionView of a permission as accountState writes it. */
function permissionView(p: {
  kind: string;
  allowance?: string | null;
  receiverId?: string;
  methodNames?: string[];
  gasKey?: { balance: string; numNonces: number };
}): unknown {
  const gas = p.gasKey && { balance: p.gasKey.balance, num_nonces: p.gasKey.numNonces };
  if (p.kind === 'FullAccess') return gas ? { GasKeyFullAccess: gas } : 'FullAccess';
  const call = { allowance: p.allowance ?? null, receiver_id: p.receiverId, method_names: p.methodNames };
  return gas ? { GasKeyFunctionCall: { ...gas, ...call } } : { FunctionCall: call };
}

/** JSON with every object's keys sorted: two views compared whatever order their fields come in. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
}

/** What compareHistory asks about, from the accounts and keys an accountState holds. */
function wavesWorkload(state: ReadonlyMap<string, string>, signer: Signer): Workload {
  const rows = [...state.keys()].map((k) => k.split(' '));
  return {
    // No token among the waves' contracts: its calls are asked of a relay, which has no such method.
    token: USERS[0]!,
    accounts: rows.filter(([kind]) => kind === 'account').map(([, id]) => id!),
    deleted: [],
    contracts: [...USERS],
    keys: rows
      .filter(([kind]) => kind === 'key')
      .map(([, id, pk]): [string, string] => [
        id!,
        formatPublicKey(
          pk === 'own' ? signer.publicKey : { keyType: KeyType.ED25519, data: Buffer.from(pk!, 'hex') },
        ),
      ]),
  };
}

/** The accounts that hold the validator's key in the chain's state: every account the waves sign for. */
function ownKeyHolders(chain: ChainTwin): string[] {
  return [...accountState(chain).keys()]
    .filter((k) => k.startsWith('key ') && k.endsWith(' own'))
    .map((k) => k.split(' ')[1]!);
}
