// Any nearlite command as its own process (`serve`, or `run` with extra flags), with the node
// helpers' RPC client: the one implementation is `spawnNearlite` in ./node.ts.
import { type RunningNode, spawnNearlite } from './node.js';

export type CliProcess = RunningNode;

export function startCli(args: readonly string[]): Promise<CliProcess> {
  return spawnNearlite(args);
}
