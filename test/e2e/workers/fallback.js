/**
 * A Worker that imports the inline entry (dist/index.js), which Workers cannot run: it compiles WebAssembly
 * from bytes, which workerd refuses. The library must still answer, and say why it is slower.
 */
import { matcherInfo, parseRobotsTxt } from '../../../dist/index.js';

const warnings = [];
const warn = console.warn;
console.warn = (...parts) => {
  warnings.push(parts.join(' '));
  warn(...parts);
};

export default {
  async fetch() {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
    const allowed = [robots.isAllowed('/private/x', 'ExampleBot'), robots.isAllowed('/public', 'ExampleBot')];
    const { kind, reason, error } = matcherInfo();
    return Response.json({ allowed, kind, reason, error: String(error), warnings });
  },
};
