// Test-only loader of the real block-stream fixtures in test/fixtures/stream: Lake's split layout
// (`<name>.block.json` + `<name>.shard_N.json`) and whole StreamerMessages (`<name>.streamer*.json`,
// snake_case or camelCase). Also a BlockSource over a set of messages, for driving a follower.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyJson } from '@nearlite/primitives';
import { type BlockSource, parseStreamerMessage, type StreamerMessage } from '@nearlite/stream';

export const STREAM_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'stream');

export interface FixtureBlock {
  /** File stem, e.g. `mainnet-93085141`. */
  readonly name: string;
  /** The message as the file holds it, before normalization (text of the whole message). */
  readonly text: string;
  readonly message: StreamerMessage;
}

/** Loads one fixture block by stem; Lake split files are joined into one message. */
export function loadFixture(name: string): FixtureBlock {
  const whole = readdirSync(STREAM_FIXTURES).find((f) => f.startsWith(`${name}.streamer`));
  if (whole) {
    const text = readFileSync(join(STREAM_FIXTURES, whole), 'utf8');
    return { name, text, message: parseStreamerMessage(text) };
  }
  const block = readFileSync(join(STREAM_FIXTURES, `${name}.block.json`), 'utf8');
  const shards: string[] = [];
  for (let i = 0; existsSync(join(STREAM_FIXTURES, `${name}.shard_${i}.json`)); i++) {
    shards.push(readFileSync(join(STREAM_FIXTURES, `${name}.shard_${i}.json`), 'utf8'));
  }
  const text = `{"block":${block},"shards":[${shards.join(',')}]}`;
  return { name, text, message: parseStreamerMessage(text) };
}

/**
 * Every fixture block (not bare headers). `verifiable` leaves out the one altered header; `whole`
 * leaves out the blocks kept without their shards (`<name>.block.json` alone), which no source
 * would send as they are.
 */
export function fixtureNames(opts: { verifiable?: boolean; whole?: boolean } = {}): string[] {
  const names = new Set<string>();
  for (const f of readdirSync(STREAM_FIXTURES)) {
    const m = /^(.+?)\.(streamer[^/]*|block)\.json$/.exec(f);
    if (m) names.add(m[1]!);
  }
  let all = [...names].sort();
  if (opts.verifiable) all = all.filter((n) => n !== 'mainnet-34834053');
  return opts.whole ? all.filter((n) => !headerOnly(n)) : all;
}

/** A block kept without its shards: `<name>.block.json` and no `shard_N.json` beside it. */
export function headerOnly(name: string): boolean {
  return (
    existsSync(join(STREAM_FIXTURES, `${name}.block.json`)) &&
    !existsSync(join(STREAM_FIXTURES, `${name}.shard_0.json`))
  );
}

/** A fresh parse of a fixture: tests may edit it freely. */
export function freshMessage(name: string): StreamerMessage {
  return parseStreamerMessage(JSON.stringify(JSON.parse(loadFixture(name).text)));
}

/** A BlockSource over messages held in memory; `failures` makes the next fetches throw. */
export class MemorySource implements BlockSource {
  readonly name = 'memory:';
  failures = 0;
  fetched: number[] = [];
  private readonly byHeight = new Map<number, string>();

  constructor(
    messages: readonly StreamerMessage[],
    private head: number | null = null,
  ) {
    for (const m of messages) this.add(m);
  }

  add(m: StreamerMessage): void {
    // As a source sends it: u64s as exact JSON numbers.
    this.byHeight.set(m.block.header.height, stringifyJson(m));
    this.head = Math.max(this.head ?? 0, m.block.header.height);
  }

  async fetchBlock(height: number): Promise<StreamerMessage | null> {
    this.fetched.push(height);
    if (this.failures > 0) {
      this.failures--;
      throw new Error(`source unavailable at ${height}`);
    }
    const text = this.byHeight.get(height);
    return text === undefined ? null : parseStreamerMessage(text);
  }

  async finalHeight(): Promise<number | null> {
    return this.head;
  }

  async firstHeight(): Promise<number | null> {
    return this.byHeight.size === 0 ? null : Math.min(...this.byHeight.keys());
  }

  async close(): Promise<void> {}
}
