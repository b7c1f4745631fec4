// Waves of transactions that commute, for tests that run the same transactions on several chains
// and compare what they leave. Every signer sends one transaction a wave, amounts stay far below
// balances, and no account is made or deleted while something is on its way to it, so the order in
// which receipts meet does not change what they leave. A wave holds transfers (to implicit accounts
// too), calls relayed between the users' relay contracts, sub-accounts made (some using a global
// contract) and deleted, keys added (gas keys among them) and deleted, money moved into gas keys and
// back, and meta transactions of the sub-accounts relayed by their parents. Each chain signs with its
// own validator key and nonces. Gas is the same wherever the receipts run but for contract storage:
// nearcore charges a write by the trie nodes on its key's path in the state its chunk starts from,
// so chains whose blocks hold the waves differently are compared with relays that touch no storage
// (relay('return')).
import { createHash } from 'node:crypto';
import { type Chain, decodeBytesList, type Signer } from '@nearlite/chain';
import {
  type AccessKey,
  type Action,
  type DelegateAction,
  decodeAccessKey,
  decodeAccount,
  delegateActionHash,
  KeyType,
  type PublicKey,
  toHex,
} from '@nearlite/primitives';
import { blockShardKey, DBCol } from '@nearlite/store';
import { parseTrieKey, type Trie, TrieKeyCol } from '@nearlite/trie';
import { poolTransaction } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { keyNonce, keysLeft, NEAR, Sender, USERS } from './four_shards.js';
import { goArgs } from './relay_contract.js';

const GHOST = 'ghost.near';

/** A transaction of the wave, its actions written for one of the chains (their keys differ). */
export interface Op {
  readonly signerId: string;
  readonly receiverId: string;
  readonly actions: (twin: Twin) => Action[];
}

/** One of the chains the waves run on, with what signs for it. */
export interface Twin {
  readonly name: string;
  readonly signer: Signer;
  /** The validator's key, which every account of the waves signs with. */
  readonly own: PublicKey;
  /** The last nonce used, by account. */
  readonly nonces: Map<string, bigint>;
  /** The nonce of `accountId`'s own key as the chain holds it; undefined while it holds none. */
  keyNonce(accountId: string): bigint | undefined;
  /** The chain's head height. */
  height(): number;
  /** Signs a transaction and hands it to the chain. */
  submit(signerId: string, receiverId: string, nonce: bigint, actions: readonly Action[]): void;
}

/** A twin that is a chain in this process, producing when asked (settle). */
export class ChainTwin implements Twin {
  constructor(
    readonly name: string,
    readonly chain: Chain,
    readonly signer: Signer,
    /** The sender that deployed the contracts, whose nonces the waves count on from. */
    readonly sender: Sender = new Sender(chain, signer),
  ) {}

  get own(): PublicKey {
    return this.signer.publicKey;
  }

  get nonces(): Map<string, bigint> {
    return this.sender.nonces;
  }

  keyNonce(accountId: string): bigint | undefined {
    return keyNonce(this.chain, accountId, this.own);
  }

  height(): number {
    return this.chain.headHeader().lite.height;
  }

  submit(signerId: string, receiverId: string, nonce: bigint, actions: readonly Action[]): void {
    poolTransaction(this.chain, this.signer, signerId, receiverId, nonce, actions);
  }
}

const keyOf = (seed: string): PublicKey => ({
  keyType: KeyType.ED25519,
  data: createHash('sha256').update(seed).digest(),
});

/** As text, bytes in hex: a Buffer too, which JSON.stringify would turn by its toJSON first. */
const json = (v: unknown) =>
  JSON.stringify(v, function (this: Record<string, unknown>, key, x) {
    const raw = this[key];
    return typeof raw === 'bigint' ? raw.toString() : raw instanceof Uint8Array ? toHex(raw) : x;
  });

/**
 * What the chain's state says of accounts at its head: each account, access key (the validator's own
 * key, which may differ between chains, named `own`; nonces left out, since a new key's starts at its
 * block's height), contract and record, as text.
 */
export function accountState(twin: ChainTwin): Map<string, string> {
  const { chain } = twin;
  const head = chain.head().hash;
  return accountStateOf(
    chain.layout.shardIds.map((shardId) => chain.stateTrie(head, shardId)!),
    twin.own,
  );
}

/** accountState of the shards' tries, `own` the validator's key. */
export function accountStateOf(tries: readonly Trie[], own: PublicKey): Map<string, string> {
  const out = new Map<string, string>();
  for (const trie of tries) {
    for (const [key, value] of trie.iterPrefix(new Uint8Array(0))) {
      switch (key[0]) {
        case TrieKeyCol.Account: {
          const p = parseTrieKey(key) as { accountId: string };
          const a = decodeAccount(value);
          out.set(`account ${p.accountId}`, json(a));
          break;
        }
        case TrieKeyCol.AccessKey: {
          const p = parseTrieKey(key) as {
            col: string;
            accountId: string;
            publicKey: PublicKey;
            index?: number;
          };
          const pk = toHex(p.publicKey.data) === toHex(own.data) ? 'own' : toHex(p.publicKey.data);
          // A gas key's nonce, which starts at its block's height times a million like a key's.
          if (p.col === 'gas_key_nonce') {
            out.set(`gas-key-nonce ${p.accountId} ${pk} ${p.index}`, 'present');
            break;
          }
          const { permission }: AccessKey = decodeAccessKey(value);
          out.set(`key ${p.accountId} ${pk}`, json(permission));
          break;
        }
        case TrieKeyCol.ContractCode: {
          const p = parseTrieKey(key) as { accountId: string };
          out.set(`code ${p.accountId}`, createHash('sha256').update(value).digest('hex'));
          break;
        }
        case TrieKeyCol.ContractData: {
          const p = parseTrieKey(key) as { accountId: string; key: Uint8Array };
          out.set(`data ${p.accountId} ${toHex(p.key)}`, toHex(value));
          break;
        }
      }
    }
  }
  return out;
}

/**
 * The rows of two accountStates that differ, each as `row: <name a> <value> , <name b> <value>`,
 * but for those `compared` leaves out.
 */
export function stateDifferences(
  a: ReadonlyMap<string, string>,
  b: ReadonlyMap<string, string>,
  [nameA, nameB]: readonly [string, string],
  compared: (row: string) => boolean = () => true,
): string[] {
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => a.get(k) !== b.get(k) && compared(k))
    .map((k) => `${k}: ${nameA} ${a.get(k) ?? '(none)'}, ${nameB} ${b.get(k) ?? '(none)'}`);
}

/** Whether anything of the transactions sent is still to run: pooled, waiting in state, or on its way. */
function busy(chain: Chain): boolean {
  const head = chain.head().hash;
  if (chain.pool.size > 0) return true;
  const waiting = keysLeft(chain, head, [
    TrieKeyCol.PostponedReceipt,
    TrieKeyCol.PendingDataCount,
    TrieKeyCol.ReceivedData,
    TrieKeyCol.DelayedReceiptOrIndices,
    TrieKeyCol.PromiseYieldReceipt,
  ]);
  if (waiting.length > 0) return true;
  return chain.layout.shardIds.some((shardId) => {
    const out = chain.store.get(DBCol.OutgoingReceipts, blockShardKey(head, shardId));
    return out !== undefined && decodeBytesList(out).length > 0;
  });
}

/** Produces blocks until the chain has been quiet for three in a row; returns how many it made. */
export async function settle(twin: ChainTwin): Promise<number> {
  let quiet = 0;
  let made = 0;
  while (quiet < 3 && made < 60) {
    await twin.chain.produceBlock();
    made++;
    quiet = busy(twin.chain) ? 0 : quiet + 1;
  }
  return made;
}

/**
 * The next nonce of `accountId`'s own key on the twin's chain. An account made by a receipt gets its
 * key at a nonce of its block's height times a million, so the chains' nonces differ.
 */
function nextNonce(twin: Twin, accountId: string): bigint {
  const nonce = (twin.nonces.get(accountId) ?? twin.keyNonce(accountId) ?? 0n) + 1n;
  twin.nonces.set(accountId, nonce);
  return nonce;
}

export function send(twin: Twin, op: Op): void {
  const actions = op.actions(twin);
  twin.submit(op.signerId, op.receiverId, nextNonce(twin, op.signerId), actions);
}

/** A meta transaction: `senderId`'s actions, signed with its key (the twin's own) for a relayer. */
function delegate(twin: Twin, senderId: string, receiverId: string, inner: Action[]): Action {
  const d: DelegateAction = {
    senderId,
    receiverId,
    actions: inner,
    nonce: nextNonce(twin, senderId),
    maxBlockHeight: BigInt(twin.height() + 100),
    publicKey: twin.own,
  };
  return { type: 'Delegate', delegateAction: d, signature: twin.signer.sign(delegateActionHash(d)) };
}

/**
 * The waves of `seed`, whose users run `relayCode` (and whose first user publishes it as a global
 * contract under its account).
 */
export function commutingWaves(seed: number, relayCode: Uint8Array) {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const amount = (maxNear: number) => BigInt(Math.floor(random() * maxNear * 1e6)) * 10n ** 18n + 1n;
  // Accounts the waves made and have not deleted, by their parent; keys added, by their account.
  const subs = new Map<string, string[]>(USERS.map((id) => [id, []]));
  const addedKeys = new Map<string, PublicKey[]>(USERS.map((id) => [id, []]));
  // Which of those are gas keys.
  const gasKeys = new Set<PublicKey>();
  let gasKeyMoves = 0;
  let made = 0;
  let calls = 0;
  // Sub-accounts whose actions users relayed.
  const relayedFor = new Set<string>();
  const globalOwner = USERS[0]!;
  // Set by opFor, which the compiler's narrowing does not follow.
  let globalState = 'none' as 'none' | 'sent' | 'ready';
  // Within a wave: accounts made or deleted in it are nobody's receiver, and an account something
  // is sent to is not deleted, so that no receipt's outcome depends on which runs first.
  const fresh = new Set<string>();
  const doomed = new Set<string>();
  const touched = new Set<string>();

  const liveSubs = () => [...subs.values()].flat().filter((id) => !fresh.has(id) && !doomed.has(id));
  const receiver = () => {
    const to = pick([...USERS, GHOST, ...liveSubs()]);
    touched.add(to);
    return to;
  };
  const opFor = (user: string): Op | null => {
    const r = random();
    if (globalState === 'none' && user === globalOwner) {
      globalState = 'sent';
      return {
        signerId: user,
        receiverId: user,
        actions: () => [{ type: 'DeployGlobalContract', code: relayCode, deployMode: 1 }],
      };
    }
    // Money into a gas key of the user's, or back out of it (more than it holds fails, the same
    // everywhere).
    const fundable = addedKeys.get(user)!.filter((k) => gasKeys.has(k));
    if (fundable.length > 0 && random() < 0.3) {
      gasKeyMoves++;
      const publicKey = pick(fundable);
      const action: Action =
        random() < 0.6
          ? { type: 'TransferToGasKey', publicKey, deposit: amount(2) }
          : { type: 'WithdrawFromGasKey', publicKey, amount: amount(1) };
      return { signerId: user, receiverId: user, actions: () => [action] };
    }
    if (r < 0.18) {
      const to = receiver();
      const deposit = amount(5);
      return { signerId: user, receiverId: to, actions: () => [{ type: 'Transfer', deposit }] };
    }
    if (r < 0.26) {
      // A NEAR-implicit account, made by the transfer.
      const to = toHex(keyOf(`implicit ${seed} ${made++}`).data);
      const deposit = amount(1);
      return { signerId: user, receiverId: to, actions: () => [{ type: 'Transfer', deposit }] };
    }
    if (r < 0.48) {
      const id = new Uint8Array(8);
      new DataView(id.buffer).setUint32(0, calls++);
      const targets = Array.from({ length: random() < 0.5 ? 1 : 2 }, () => ({
        accountId: receiver(),
        fail: random() < 0.25,
      }));
      const caller = pick(USERS);
      const args = goArgs({ caller, id, targets });
      const deposit = random() < 0.5 ? 0n : amount(1);
      // Now and then with a transfer before the call in the same receipt.
      const before: Action[] = random() < 0.2 ? [{ type: 'Transfer', deposit: amount(1) }] : [];
      return {
        signerId: user,
        receiverId: caller,
        actions: () => [
          ...before,
          { type: 'FunctionCall', methodName: 'go', args, gas: 100n * 10n ** 12n, deposit },
        ],
      };
    }
    if (r < 0.58) {
      // A sub-account's transfer or call, relayed by the user: the sub-account signs, the user pays.
      const live = liveSubs();
      if (live.length === 0) return null;
      const senderId = pick(live);
      touched.add(senderId);
      relayedFor.add(senderId);
      const to = receiver();
      const deposit = amount(1);
      const inner: Action[] =
        random() < 0.5
          ? [{ type: 'Transfer', deposit }]
          : [{ type: 'FunctionCall', methodName: 'work', args: new Uint8Array(9), gas: 10n ** 13n, deposit }];
      return {
        signerId: user,
        receiverId: senderId,
        actions: (twin) => [delegate(twin, senderId, to, inner)],
      };
    }
    if (r < 0.7) {
      const sub = `s${made++}.${user}`;
      subs.get(user)!.push(sub);
      fresh.add(sub);
      const useGlobal = globalState === 'ready' && random() < 0.5;
      const deposit = 10n * NEAR + amount(1);
      return {
        signerId: user,
        receiverId: sub,
        actions: ({ own }) => [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit },
          { type: 'AddKey', publicKey: own, accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } } },
          ...(useGlobal
            ? [
                {
                  type: 'UseGlobalContract',
                  identifier: { kind: 'AccountId', accountId: globalOwner },
                } as const,
              ]
            : []),
        ],
      };
    }
    if (r < 0.78) {
      const mine = subs.get(user)!;
      const candidates = mine.filter((id) => !fresh.has(id) && !touched.has(id));
      if (candidates.length === 0) return null;
      const sub = pick(candidates);
      mine.splice(mine.indexOf(sub), 1);
      doomed.add(sub);
      const beneficiaryId = pick([...USERS, GHOST]);
      return { signerId: sub, receiverId: sub, actions: () => [{ type: 'DeleteAccount', beneficiaryId }] };
    }
    if (r < 0.86) {
      const publicKey = keyOf(`key ${seed} ${made++}`);
      addedKeys.get(user)!.push(publicKey);
      const allowance = random() < 0.3 ? null : amount(1);
      const receiverId = pick(USERS);
      // Some are gas keys (GasKeys, 85), with nonces of their own and a balance to pay gas from.
      const gasKey = random() < 0.4 ? { balance: 0n, numNonces: 1 + Math.floor(random() * 3) } : undefined;
      if (gasKey) gasKeys.add(publicKey);
      // A gas key's function-call permission has no allowance (validate_add_key_action).
      const permission: AccessKey['permission'] =
        random() < 0.5
          ? { kind: 'FullAccess', ...(gasKey ? { gasKey } : {}) }
          : gasKey
            ? { kind: 'FunctionCall', allowance: null, receiverId, methodNames: ['go'], gasKey }
            : { kind: 'FunctionCall', allowance, receiverId, methodNames: ['go'] };
      return {
        signerId: user,
        receiverId: user,
        actions: () => [{ type: 'AddKey', publicKey, accessKey: { nonce: 0n, permission } }],
      };
    }
    const keys = addedKeys.get(user)!;
    if (keys.length === 0) return null;
    const publicKey = keys.splice(Math.floor(random() * keys.length), 1)[0]!;
    return { signerId: user, receiverId: user, actions: () => [{ type: 'DeleteKey', publicKey }] };
  };

  return {
    /** The next wave's transactions; call `settled` once it has run on every chain. */
    next(): Op[] {
      fresh.clear();
      doomed.clear();
      touched.clear();
      return USERS.map((user) => (random() < 0.85 ? opFor(user) : null)).filter((op) => op !== null);
    },
    settled(): void {
      if (globalState === 'sent') globalState = 'ready';
    },
    /** How many relayed calls the waves have sent. */
    get calls(): number {
      return calls;
    },
    /** How many transfers into gas keys and withdrawals from them the waves have sent. */
    get gasKeyMoves(): number {
      return gasKeyMoves;
    },
    /** The sub-accounts still there whose actions users relayed. */
    relayedSenders(): string[] {
      return [...subs.values()].flat().filter((id) => relayedFor.has(id));
    },
  };
}
