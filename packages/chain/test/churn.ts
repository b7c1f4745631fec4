// A workload that keeps every shard's state changing: contracts write and remove records of random
// sizes, transfers cross shards, sub-accounts are created (on their parent's shard or another) and
// deleted. For the four-shard storage tests.
import type { Chain, Signer } from '@nearlite/chain';
import { trieKeyAccount } from '@nearlite/trie';
import { wat } from '../../../test/helpers/wat.js';
import { accountTrie, deployToUsers, keyNonce, type Sender, USERS } from './four_shards.js';

/** w: writes the input's bytes after the first under the first; d: removes the record under it. */
const RECORDS = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $reg (param i64 i64)))
  (import "env" "register_len" (func $len (param i64) (result i64)))
  (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "storage_remove" (func $remove (param i64 i64 i64) (result i64)))
  (memory 1)
  (func (export "w")
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 0))
    (drop (call $write (i64.const 1) (i64.const 0)
      (i64.sub (call $len (i64.const 0)) (i64.const 1)) (i64.const 1) (i64.const 1))))
  (func (export "d")
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 0))
    (drop (call $remove (i64.const 1) (i64.const 0) (i64.const 1)))))`);

export class Churn {
  private seq = 0;
  private readonly live = new Set<string>();
  private readonly created: string[] = [];
  private readonly deleted: string[] = [];

  constructor(
    private readonly chain: Chain,
    private readonly signer: Signer,
    private readonly sender: Sender,
    private readonly random: () => number,
  ) {}

  /** Deploys the records contract on every account of USERS; whether it landed everywhere. */
  async deploy(): Promise<boolean> {
    return deployToUsers(this.chain, this.sender, await RECORDS);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.random() * xs.length)]!;
  }

  /** Pools `count` random transactions for the next block. */
  send(count: number): void {
    const { sender, random } = this;
    for (let n = 0; n < count; n++) {
      const roll = random();
      const user = this.pick(USERS);
      const call = (methodName: string, args: Uint8Array) =>
        sender.send(user, user, [{ type: 'FunctionCall', methodName, args, gas: 10n ** 13n, deposit: 0n }]);
      if (roll < 0.45) {
        const value = new Uint8Array(1 + Math.floor(random() * 300));
        value[0] = Math.floor(random() * 12);
        for (let i = 1; i < value.length; i++) value[i] = Math.floor(random() * 256);
        call('w', value);
      } else if (roll < 0.65) call('d', Uint8Array.of(Math.floor(random() * 12)));
      else if (roll < 0.85) sender.send(user, this.pick(USERS), [{ type: 'Transfer', deposit: 10n ** 21n }]);
      else if (roll < 0.93 || this.live.size === 0) {
        // Given the key every account signs with, so that it can delete itself later.
        const id = `g${this.seq++}.${user}`;
        this.created.push(id);
        sender.send(user, id, [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: 10n ** 22n },
          {
            type: 'AddKey',
            publicKey: this.signer.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ]);
      } else {
        const id = this.pick([...this.live]);
        this.live.delete(id);
        this.deleted.push(id);
        sender.send(id, id, [{ type: 'DeleteAccount', beneficiaryId: this.pick(USERS) }]);
      }
    }
  }

  /** After a block: the sub-accounts it created sign from the nonce their key was given. */
  afterBlock(): void {
    for (const id of this.created.splice(0)) {
      const nonce = keyNonce(this.chain, id, this.signer.publicKey);
      if (nonce === undefined) this.created.push(id);
      else {
        this.sender.nonces.set(id, nonce);
        this.live.add(id);
      }
    }
  }

  /** How many sub-accounts were created, and how many of those sent away are gone at the head. */
  counts(): { created: number; deleted: number } {
    const gone = this.deleted.filter(
      (id) => accountTrie(this.chain, id).get(trieKeyAccount(id)) === undefined,
    );
    return { created: this.seq, deleted: gone.length };
  }
}
