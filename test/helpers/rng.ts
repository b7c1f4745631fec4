// The seeded generator of the request, block and module manglers (shared with the bench), so a
// failure can be replayed.
export { rng } from '../../scripts/rng.mjs';
