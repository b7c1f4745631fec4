// The home's key files (validator_key.json, node_key.json), read so that every complaint names the
// file: a bare JSON.parse message ("Expected property name…") leaves an operator guessing which.
import { existsSync, readFileSync } from 'node:fs';
import { KeyFileError } from '@nearlite/chain';
import { parseCommentedJson } from '@nearlite/primitives';

/** A key file's JSON object; KeyFileError naming the file when it is not one. */
export function readKeyFile(path: string): Record<string, string> {
  let v: unknown;
  try {
    // As nearcore's KeyFile::from_file, comments are allowed.
    v = parseCommentedJson(readFileSync(path));
  } catch (err) {
    throw new KeyFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new KeyFileError(`${path} is not a key file (a JSON object)`);
  return v as Record<string, string>;
}

/** node_key.json's public key, as `status` shows it; empty when the home has none. */
export function nodePublicKey(path: string): string {
  // nearcore's load_config refuses a home without its node key file.
  if (!existsSync(path))
    throw new KeyFileError(
      `Failed reading node key file from ${path}: it does not exist ('nearlite init' writes one; node_key_file in config.json names it)`,
    );
  const key = readKeyFile(path).public_key;
  if (typeof key !== 'string' || !key.startsWith('ed25519:'))
    throw new KeyFileError(`${path} has no ed25519 public_key`);
  return key;
}
