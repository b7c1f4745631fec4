// The variables a launcher's first line sets (`#!/usr/bin/env -S NAME=value … node`): what the
// `nearlite` command and `npm start` run with, for whatever starts the same script another way.
import { readFileSync } from 'node:fs';

/** `{ NAME: value }` for each assignment on the first line of `script`. */
export function launchEnv(script) {
  return Object.fromEntries(
    readFileSync(script, 'utf8')
      .split('\n', 1)[0]
      .split(' ')
      .filter((w) => /^[A-Z_]+=/.test(w))
      .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
  );
}
