// NEAR Lake's object layout: `<height padded to 12 digits>/block.json` and `shard_<id>.json`.

export function lakeHeightFolder(height: number): string {
  return String(height).padStart(12, '0');
}

export function lakeBlockKey(height: number): string {
  return `${lakeHeightFolder(height)}/block.json`;
}

export function lakeShardKey(height: number, shardId: number): string {
  return `${lakeHeightFolder(height)}/shard_${shardId}.json`;
}

/** The height of a Lake folder name, or null when the name is not one. */
export function parseLakeFolder(name: string): number | null {
  return /^\d{12}$/.test(name) ? Number(name) : null;
}
