/**
 * Byte arrays as one array that owns its buffer (not Buffer.concat's, which may share a pool), so that a batch
 * or its output can be handed to another thread; a single part is returned as it is.
 */
export function joined(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
