/**
 * Every test process keeps its sockets on the loopback interface (./loopback-sockets.mjs), whatever the code
 * under test or a test's own fetch does: the suites that name other hosts pass a fetch that refuses them
 * (./loopback-fetch.ts), and this is the backstop under all of them, so that no packet leaves 127.0.0.1 / ::1
 * even when a test forgets. A socket that carries its own lookup (the command's guarded fetch, answered from
 * a test's table) is checked on what that lookup answers.
 */
import { keepSocketsOnLoopback } from './loopback-sockets.mjs';

keepSocketsOnLoopback(undefined, { ownLookups: true });
