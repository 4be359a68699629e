/** robots.txt files from the drafts' own examples, which several suites hold the library to. */

/** draft-ietf-aipref-attach-05 §3.4, "Example robots.txt file". */
export const ATTACH_EXAMPLE = [
  'User-Agent: *',
  'Allow: /',
  'Disallow: /never/',
  'Content-Usage: train-ai=n',
  'Content-Usage: /ai-ok/ train-ai=y',
  '',
  'User-Agent: ExampleBot',
  'Allow: /',
  'Content-Usage: train-ai=y',
].join('\n');

/** draft-ietf-aipref-attach-05 §1.2: a Content-Usage rule beside `Allow: /`. */
export const ATTACH_INTRODUCTION = 'User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n';
