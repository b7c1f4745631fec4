// `file:DIR` or a `file://` URL: the Lake layout on disk, as a source or a target names it.
import { fileURLToPath } from 'node:url';

/** The directory a file spec names (empty for a bare `file:`); undefined for any other spec. */
export function fileSpecDir(spec: string): string | undefined {
  if (spec.startsWith('file://')) return fileURLToPath(spec);
  if (spec.startsWith('file:')) return spec.slice(5);
  return undefined;
}
