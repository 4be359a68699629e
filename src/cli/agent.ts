/**
 * The crawler a command decides for, read once, the same way by every subcommand (`check`'s AGENT,
 * `filter`'s --agent), before any file is read or fetched: its product token, or its full User-Agent header
 * from which the token is taken.
 */
import { describeValue } from '../api/describe-value.js';
import { isUserAgentHeader, parseRobotsTxt, productToken, type ProfileName } from './library.js';
import { UsageError } from './usage.js';

export interface Agent {
  /** What the library is asked with. */
  readonly name: string;
  /** The header it was read from, when the value was one. */
  readonly header: string | undefined;
}

const HOW_TO_NAME =
  'pass the crawler\'s name, letters, "_" and "-" only (ExampleBot), optionally with a version (ExampleBot/1.2), ' +
  'or its full User-Agent header in quotes';

/**
 * `value` as the library takes it: a header's crawler token, or the value itself once `profile` accepts it
 * (google compares agents as given; rfc9309 and yandex take product tokens). `label` names the value in
 * messages: `--agent` (the default) or `AGENT`. Errors are UsageErrors that say what to pass.
 */
export function readAgent(value: string, profile: ProfileName, label = '--agent'): Agent {
  if (value === '') throw new UsageError(`${label} is empty: ${HOW_TO_NAME}`);
  if (isUserAgentHeader(value)) {
    const token = productToken(value);
    if (token === undefined) {
      throw new UsageError(
        `${label} ${describeValue(value)} reads as a User-Agent header that names no crawler (only browser and platform ` +
          `names): pass the crawler's token, e.g. ExampleBot`,
      );
    }
    return { name: token, header: value };
  }
  // A file of no groups compiles any agent the profile accepts, and refuses the others as the real file would.
  const empty = parseRobotsTxt('', { profile });
  try {
    empty.forAgent(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new UsageError(`${label} ${describeValue(value)} is not a product token: ${HOW_TO_NAME}; --profile google compares it as given`);
  } finally {
    empty.dispose();
  }
  return { name: value, header: undefined };
}
