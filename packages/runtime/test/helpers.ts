// A tiny in-memory chain for runtime tests: Map-backed state under a real TrieUpdate, ed25519 keys
// from seeds (node:crypto), signed transactions, and blocks that feed outgoing receipts back in.
import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  type AccessKey,
  type Account,
  type Action,
  decodeAccessKey,
  decodeAccount,
  encodeAccessKey,
  encodeAccount,
  encodeSignedTransaction,
  KeyType,
  type PublicKey,
  type Transaction,
  toHex,
  transactionHash,
} from '@nearlite/primitives';
import {
  type ApplyContext,
  type ApplyResult,
  type CongestionInfo,
  DEFAULT_RUNTIME_CONFIG_VIEW,
  decodeOutcome,
  type ExecutionOutcome,
  parseRuntimeConfig,
  Runtime,
  VmFunctionCallRunner,
} from '@nearlite/runtime';
import {
  applyChanges,
  EMPTY_ROOT,
  MemoryTrieStorage,
  Trie,
  TrieRecorder,
  TrieUpdate,
  trieKeyAccessKey,
  trieKeyAccount,
} from '@nearlite/trie';
import { ContractCache, type VMContext } from '@nearlite/vm';

export const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);

const require = createRequire(import.meta.url);
type Wabt = {
  parseWat(n: string, s: string): { toBinary(o: object): { buffer: Uint8Array }; destroy(): void };
};
const wabt = await (require('wabt') as () => Promise<Wabt>)();

/** Compiles a module from its text form. */
export function wat(src: string): Uint8Array {
  const m = wabt.parseWat('c.wat', src);
  try {
    return new Uint8Array(m.toBinary({}).buffer);
  } finally {
    m.destroy();
  }
}

/** A runtime of chain `test` that runs FunctionCall actions on the VM, with a cache of its own. */
export function vmRuntime(): Runtime {
  return new Runtime({
    config,
    chainId: 'test',
    validators: new Map(),
    functionCall: new VmFunctionCallRunner(new ContractCache()),
  });
}

/** alice.near (seed 1) and bob.near (seed 2), 100 NEAR each, on the VM, alice running `code`. */
export function contractChain(code: Uint8Array): TestChain {
  const alice = keyFromSeed(1);
  const c = new TestChain(vmRuntime());
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.addAccount('bob.near', 100n * NEAR, keyFromSeed(2));
  c.block([signTx(alice, 'alice.near', 'alice.near', 1n, [{ type: 'DeployContract', code }]).bytes]);
  c.settle();
  return c;
}
export const NEAR = 10n ** 24n;
export const GAS_PRICE = 100_000_000n;

export interface Key {
  readonly publicKey: PublicKey;
  readonly privateKey: KeyObject;
}

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export function keyFromSeed(seed: number): Key {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, Buffer.alloc(32, seed)]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return { privateKey, publicKey: { keyType: KeyType.ED25519, data: new Uint8Array(spki.subarray(12)) } };
}

export function signTx(
  key: Key,
  signerId: string,
  receiverId: string,
  nonce: bigint,
  actions: Action[],
  v1?: Pick<Transaction, 'nonceMode' | 'nonceIndex'>,
): { bytes: Uint8Array; hash: Uint8Array } {
  const tx: Transaction = {
    ...(v1 ? { version: 1 as const, ...v1 } : {}),
    signerId,
    publicKey: key.publicKey,
    nonce,
    receiverId,
    blockHash: new Uint8Array(32).fill(9),
    actions,
  };
  const hash = transactionHash(tx);
  const signature = { keyType: KeyType.ED25519, data: new Uint8Array(sign(null, hash, key.privateKey)) };
  return { bytes: encodeSignedTransaction(tx, signature), hash };
}

export const FULL_ACCESS: AccessKey = { nonce: 0n, permission: { kind: 'FullAccess' } };

/** Account storage for an account with one full-access ed25519 key (100 + 33 + 9 + 40). */
export const ONE_KEY_STORAGE = 182n;

export class TestChain {
  readonly state = new Map<string, Uint8Array>();
  readonly runtime: Runtime;
  height = 1;
  burnt = 0n;
  pending: Uint8Array[] = [];
  gasLimit = 1_000_000_000_000_000n;
  gasPrice = GAS_PRICE;
  /** ApplyContext.minimumStake; unset, as with no validators, any non-zero stake passes. */
  minimumStake: bigint | undefined;
  /** Carried from chunk to chunk as a chain's chunk extra carries it. */
  congestionInfo: CongestionInfo | undefined;
  /** More of the ApplyContext (a shard layout, another shard). */
  ctxExtra: Partial<ApplyContext> = {};
  /**
   * Each chunk records its storage proof, as a chain applies it. The state here has no trie, so only
   * contract-data removals count towards it.
   */
  recording = false;

  /** The state as (trie key, value) pairs. */
  *stateEntries(): Generator<readonly [Uint8Array, Uint8Array]> {
    for (const [k, v] of this.state) yield [Buffer.from(k, 'hex'), v];
  }

  constructor(runtime?: Runtime) {
    this.runtime =
      runtime ??
      new Runtime({
        config,
        chainId: 'test',
        validators: new Map(),
      });
  }

  addAccount(id: string, amount: bigint, key?: Key): void {
    const account: Account = {
      amount,
      locked: 0n,
      codeHash: new Uint8Array(32),
      storageUsage: key ? ONE_KEY_STORAGE : 100n,
    };
    this.state.set(toHex(trieKeyAccount(id)), encodeAccount(account));
    if (key) this.state.set(toHex(trieKeyAccessKey(id, key.publicKey)), encodeAccessKey(FULL_ACCESS));
  }

  account(id: string): Account | null {
    const raw = this.state.get(toHex(trieKeyAccount(id)));
    return raw ? decodeAccount(raw) : null;
  }

  accessKey(id: string, pk: PublicKey): AccessKey | null {
    const raw = this.state.get(toHex(trieKeyAccessKey(id, pk)));
    return raw ? decodeAccessKey(raw) : null;
  }

  /** Every account's amount + locked. */
  totalBalance(): bigint {
    let sum = 0n;
    for (const [k, v] of this.state) {
      if (!k.startsWith('00')) continue;
      const a = decodeAccount(v);
      sum += a.amount + a.locked;
    }
    return sum;
  }

  /** Applies one chunk with the receipts the previous one sent out; returns the result and outcomes. */
  block(transactions: Uint8Array[] = []): { res: ApplyResult; outcomes: ExecutionOutcome[] } {
    this.height += 1;
    const base = {
      get: (k: Uint8Array) => this.state.get(toHex(k)),
      iterPrefix: (p: Uint8Array) => {
        const hp = toHex(p);
        return [...this.state]
          .filter(([k]) => k.startsWith(hp))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]): [Uint8Array, Uint8Array] => [new Uint8Array(Buffer.from(k, 'hex')), v]);
      },
    };
    const update = new TrieUpdate(
      base,
      this.recording ? new TrieRecorder(new Trie(new MemoryTrieStorage(), EMPTY_ROOT)) : null,
    );
    const ctx: ApplyContext = {
      shardId: 0,
      blockHeight: this.height,
      blockHash: new Uint8Array(32).fill(this.height & 0xff),
      prevBlockHash: new Uint8Array(32),
      blockTimestamp: BigInt(this.height) * 1_000_000_000n,
      epochId: new Uint8Array(32),
      epochHeight: 1,
      gasPrice: this.gasPrice,
      gasLimit: this.gasLimit,
      randomSeed: new Uint8Array(32),
      accountShard: () => 0,
      ...(this.minimumStake !== undefined ? { minimumStake: this.minimumStake } : {}),
      ...(this.congestionInfo ? { congestionInfo: this.congestionInfo } : {}),
      ...this.ctxExtra,
    };
    const res = this.runtime.applyChunk(ctx, update, transactions, this.pending);
    for (const { key, value } of update.finalize().changes) {
      if (value) this.state.set(toHex(key), value);
      else this.state.delete(toHex(key));
    }
    this.pending = res.outgoingReceipts.map((r) => r.bytes);
    this.congestionInfo = res.congestionInfo;
    this.burnt += res.balanceBurnt;
    return { res, outcomes: res.outcomes.map((o) => decodeOutcome(o.bytes)) };
  }

  /** Runs blocks until no receipt is in flight or delayed. */
  settle(limit = 20): ExecutionOutcome[] {
    const all: ExecutionOutcome[] = [];
    let delayed = 0;
    for (let i = 0; i < limit && (this.pending.length > 0 || delayed > 0); i++) {
      const { res, outcomes } = this.block();
      delayed = res.delayedReceipts;
      all.push(...outcomes);
    }
    return all;
  }
}

/** A function call of an account on itself at height 10, with 1 NEAR and 300 Tgas, for the VM alone. */
export function selfCallContext(accountId: string): VMContext {
  return {
    current_account_id: accountId,
    signer_account_id: accountId,
    signer_account_pk: new Uint8Array(33),
    predecessor_account_id: accountId,
    input: new Uint8Array(0),
    promise_results: [],
    block_height: 10n,
    block_timestamp: 0n,
    epoch_height: 1n,
    chain_id: 'test',
    account_balance: NEAR,
    account_locked_balance: 0n,
    storage_usage: 10_000n,
    attached_deposit: 0n,
    prepaid_gas: 300_000_000_000_000n,
    random_seed: new Uint8Array(32),
    view_config: null,
    output_data_receivers: [],
  };
}

/** A trie on memory storage holding `changes` written from the empty root. */
export function trieOf(changes: readonly { key: Uint8Array; value: Uint8Array }[]): Trie {
  const storage = new MemoryTrieStorage();
  const ch = applyChanges(storage, EMPTY_ROOT, changes);
  for (const ins of ch.insertions) storage.put(ins.hash, ins.bytes);
  return new Trie(storage, ch.newRoot);
}
