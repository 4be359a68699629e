/** A fetch that keeps a copy of the body the library reads, for a command that needs the file's bytes too. */
import type { HostGuard } from './host-guard.js';
import type { FetchLike } from './library.js';
import { withBody } from './response-body.js';

/**
 * The guard's fetch, keeping a copy of the last response's body as the library reads it: fetchRobotsTxt
 * gives the parsed file, and the linter and the lab need its bytes.
 */
export function recordingFetch(guard: HostGuard, maxBytes: number): { readonly fetch: FetchLike; body(): Uint8Array } {
  let chunks: Uint8Array[] = [];
  const fetch: FetchLike = async (url, init) => {
    const response = await guard.fetch(url, init);
    chunks = [];
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    });
    const body = response.body === null ? null : response.body.pipeThrough(copy);
    return withBody(response, body);
  };
  // The library reads one byte past the limit of a body it cuts: the linter is given it, to know of the cut.
  return { fetch, body: () => Buffer.concat(chunks).subarray(0, maxBytes + 1) };
}
