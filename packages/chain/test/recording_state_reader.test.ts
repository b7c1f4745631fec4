// What a chunk's reads record of the trie, as nearcore's TrieRecorder does: the code a call runs is
// fetched by hash and left out of the proof, while the length of an account's code (get_code_len,
// for the storage usage a deployment or deletion takes off) records the path to the code's leaf and
// not the code.
import { sha256, utf8 } from '@nearlite/primitives';
import { contractStorageUsage } from '@nearlite/runtime';
import {
  applyChanges,
  EMPTY_ROOT,
  MemoryTrieStorage,
  Trie,
  TrieRecorder,
  TrieUpdate,
  trieKeyAccount,
  trieKeyContractCode,
} from '@nearlite/trie';
import t from 'tap';
import { pathBytes } from '../../../test/helpers/proven_bytes.js';
import { recordingStateReader } from '../src/state_store.js';

const code = new Uint8Array(5000).fill(7);
const account = { amount: 1n, locked: 0n, codeHash: sha256(code), storageUsage: 5182n };

function state() {
  const storage = new MemoryTrieStorage();
  const flat = new Map<string, Uint8Array>();
  const changes = [
    { key: trieKeyContractCode('c.near'), value: code },
    { key: trieKeyAccount('c.near'), value: utf8('account') },
  ];
  // Other accounts' code around it, so that the path has branches.
  for (let i = 0; i < 50; i++)
    changes.push({ key: trieKeyContractCode(`a${i}.near`), value: utf8(`code ${i}`) });
  for (const c of changes) flat.set(Buffer.from(c.key).toString('hex'), c.value);
  const ch = applyChanges(storage, EMPTY_ROOT, changes);
  for (const ins of ch.insertions) storage.put(ins.hash, ins.bytes);
  const trie = new Trie(storage, ch.newRoot);
  const recorder = new TrieRecorder(trie);
  const reader = { get: (k: Uint8Array) => flat.get(Buffer.from(k).toString('hex')) };
  return { trie, recorder, update: new TrieUpdate(recordingStateReader(reader, trie, recorder), recorder) };
}

t.test("the code's length records the path to it, not the code", async (t) => {
  const { trie, recorder, update } = state();
  const key = trieKeyContractCode('c.near');
  const path = pathBytes(trie, key);
  t.equal(contractStorageUsage(update, 'c.near', account), 5000n, 'the length of the code');
  t.ok(path > 0);
  t.equal(recorder.size, path, 'the nodes down to its leaf, without its 5,000 bytes');

  t.same(update.get(key), code, 'reading the code to run it');
  t.equal(recorder.size, path, 'records nothing more');

  update.set(key, new Uint8Array(10));
  t.equal(update.valueLength(key), 10, "the chunk's own write answers");
  update.remove(key);
  t.equal(update.valueLength(key), undefined, 'and its removal');
  t.equal(recorder.size, path);
});

t.test('a lookup of code never read records nothing', async (t) => {
  const { recorder, update } = state();
  t.same(update.get(trieKeyContractCode('c.near')), code);
  t.equal(recorder.size, 0, 'code fetched to run it is not in the proof');
});
